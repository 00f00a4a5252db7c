import type { OptionSpec, ParsedOption } from "../options/option-spec.js";

export const CAT_SPEC: OptionSpec = {
  short: "benstuvAET",
  long: [
    { name: "number-nonblank", argument: "none", key: "b" },
    { name: "number", argument: "none", key: "n" },
    { name: "squeeze-blank", argument: "none", key: "s" },
    { name: "show-nonprinting", argument: "none", key: "v" },
    { name: "show-ends", argument: "none", key: "E" },
    { name: "show-tabs", argument: "none", key: "T" },
    { name: "show-all", argument: "none", key: "A" },
    { name: "help", argument: "none", key: "help" },
    { name: "version", argument: "none", key: "version" },
  ],
};

/** What cat does to each line; all false means a plain byte copy. */
export interface CatFormat {
  readonly number: boolean;
  readonly numberNonblank: boolean;
  readonly squeezeBlank: boolean;
  readonly showNonprinting: boolean;
  readonly showEnds: boolean;
  readonly showTabs: boolean;
}

export type CatSettings =
  | { readonly ok: true; readonly format: CatFormat }
  | { readonly ok: false; readonly spelling: string };

/** Folds parsed options into a format (`-e` = `-vE`, `-t` = `-vT`, `-A` = `-vET`, `-u` ignored). */
export function catSettings(options: readonly ParsedOption[]): CatSettings {
  const format = {
    number: false,
    numberNonblank: false,
    squeezeBlank: false,
    showNonprinting: false,
    showEnds: false,
    showTabs: false,
  };
  for (const option of options) {
    switch (option.key) {
      case "b":
        format.number = true;
        format.numberNonblank = true;
        break;
      case "n":
        format.number = true;
        break;
      case "s":
        format.squeezeBlank = true;
        break;
      case "v":
        format.showNonprinting = true;
        break;
      case "e":
        format.showNonprinting = true;
        format.showEnds = true;
        break;
      case "E":
        format.showEnds = true;
        break;
      case "t":
        format.showNonprinting = true;
        format.showTabs = true;
        break;
      case "T":
        format.showTabs = true;
        break;
      case "A":
        format.showNonprinting = true;
        format.showEnds = true;
        format.showTabs = true;
        break;
      case "u":
        break;
      default:
        return { ok: false, spelling: option.spelling };
    }
  }
  return { ok: true, format };
}

export function isPlainCopy(format: CatFormat): boolean {
  return !(
    format.number ||
    format.squeezeBlank ||
    format.showNonprinting ||
    format.showEnds ||
    format.showTabs
  );
}
