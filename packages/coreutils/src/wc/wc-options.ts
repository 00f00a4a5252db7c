import type { OptionSpec, ParsedOption } from "../options/option-spec.js";

export const WC_SPEC: OptionSpec = {
  short: "clLmw",
  long: [
    { name: "bytes", argument: "none", key: "c" },
    { name: "chars", argument: "none", key: "m" },
    { name: "lines", argument: "none", key: "l" },
    { name: "words", argument: "none", key: "w" },
    { name: "debug", argument: "none", key: "debug" },
    { name: "files0-from", argument: "required", key: "files0-from" },
    { name: "max-line-length", argument: "none", key: "L" },
    { name: "help", argument: "none", key: "help" },
    { name: "version", argument: "none", key: "version" },
  ],
};

/** Which counts to print; GNU prints them in this order. */
export interface WcSelection {
  lines: boolean;
  words: boolean;
  chars: boolean;
  bytes: boolean;
  maxLineLength: boolean;
}

export type WcSettings =
  | { readonly ok: true; readonly selection: WcSelection }
  | { readonly ok: false; readonly spelling: string };

export function wcSettings(options: readonly ParsedOption[]): WcSettings {
  const selection = {
    lines: false,
    words: false,
    chars: false,
    bytes: false,
    maxLineLength: false,
  };
  for (const option of options) {
    if (option.key === "l") selection.lines = true;
    else if (option.key === "w") selection.words = true;
    else if (option.key === "m") selection.chars = true;
    else if (option.key === "c") selection.bytes = true;
    else if (option.key === "L") selection.maxLineLength = true;
    else return { ok: false, spelling: option.spelling };
  }
  if (!Object.values(selection).some(Boolean)) {
    selection.lines = true;
    selection.words = true;
    selection.bytes = true;
  }
  return { ok: true, selection };
}

export function selectedCount(selection: WcSelection): number {
  return Object.values(selection).filter(Boolean).length;
}
