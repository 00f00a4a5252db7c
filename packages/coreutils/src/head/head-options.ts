import type { OptionSpec } from "../options/option-spec.js";
import { parseOptions } from "../options/parse-options.js";
import { actedOnWhileReading } from "../options/read-first.js";
import { unsupportedOption } from "../options/usage-error.js";
import { parseSize } from "../text/parse-size.js";

export const HEAD_SPEC: OptionSpec = {
  short: "c:n:qvz0123456789",
  long: [
    { name: "bytes", argument: "required", key: "c" },
    { name: "lines", argument: "required", key: "n" },
    { name: "-presume-input-pipe", argument: "none", key: "presume-input-pipe" },
    { name: "quiet", argument: "none", key: "q" },
    { name: "silent", argument: "none", key: "q" },
    { name: "verbose", argument: "none", key: "v" },
    { name: "zero-terminated", argument: "none", key: "z" },
    { name: "help", argument: "none", key: "help" },
    { name: "version", argument: "none", key: "version" },
  ],
};

export interface HeadSettings {
  countLines: boolean;
  count: bigint;
  /** Negative count: everything except the last `count` units. */
  fromEnd: boolean;
  headers: "auto" | "never" | "always";
  operands: readonly string[];
}

/**
 * `failure`: the whole message; `usage`: add the "Try --help" line; `unsupported`: the
 * spelling of a GNU option this implementation does not carry (the message refuses it).
 */
export type HeadParse =
  | { readonly ok: true; readonly settings: HeadSettings }
  | {
      readonly ok: false;
      readonly message: string;
      readonly usage: boolean;
      readonly unsupported?: string;
    };

function setCount(settings: HeadSettings, lines: boolean, text: string): string | undefined {
  settings.countLines = lines;
  const negative = text.startsWith("-");
  const value = parseSize(negative ? text.slice(1) : text);
  if (typeof value === "string") {
    const why = value === "overflow" ? ": Value too large for defined data type" : "";
    return `head: invalid number of ${lines ? "lines" : "bytes"}: '${text}'${why}\n`;
  }
  settings.fromEnd = negative;
  settings.count = value;
  return undefined;
}

/** The obsolete leading `-NUM[bkm][cqlvz]` form (only as the first argument). */
function parseObsolete(settings: HeadSettings, argument: string): string | undefined {
  const digits = /^-([0-9]+)/.exec(argument)?.[1] as string;
  let multiplier = "";
  for (const letter of argument.slice(digits.length + 1)) {
    if (letter === "c") [settings.countLines, multiplier] = [false, ""];
    else if ("bkm".includes(letter)) [settings.countLines, multiplier] = [false, letter];
    else if (letter === "l") settings.countLines = true;
    else if (letter === "q") settings.headers = "never";
    else if (letter === "v") settings.headers = "always";
    else if (letter === "z") return unsupportedOption("head", "-z");
    else return `head: invalid trailing option -- ${letter}\n`;
  }
  return setCount(settings, settings.countLines, `${digits}${multiplier}`);
}

export function parseHeadOptions(argv: readonly string[]): HeadParse {
  const settings: HeadSettings = {
    countLines: true,
    count: 10n,
    fromEnd: false,
    headers: "auto",
    operands: [],
  };
  let rest = argv;
  const first = argv[0];
  if (first !== undefined && /^-[0-9]/.test(first)) {
    const failure = parseObsolete(settings, first);
    if (failure !== undefined)
      return {
        ok: false,
        message: failure,
        usage: !failure.includes("invalid number"),
        ...(failure === unsupportedOption("head", "-z") ? { unsupported: "-z" } : {}),
      };
    rest = argv.slice(1);
  }
  const parsed = parseOptions("head", HEAD_SPEC, rest);
  if (!parsed.ok) {
    const early = actedOnWhileReading(parsed.options);
    return {
      ok: false,
      message: parsed.message,
      usage: true,
      ...(early ? { unsupported: early } : {}),
    };
  }
  for (const option of parsed.options) {
    if (option.key === "c" || option.key === "n") {
      const failure = setCount(settings, option.key === "n", option.value ?? "");
      if (failure !== undefined) return { ok: false, message: failure, usage: false };
    } else if (option.key === "q") settings.headers = "never";
    else if (option.key === "v") settings.headers = "always";
    else if (/^[0-9]$/.test(option.key)) {
      return {
        ok: false,
        message: `head: invalid trailing option -- ${option.key}\n`,
        usage: true,
      };
    } else {
      const message = unsupportedOption("head", option.spelling);
      return { ok: false, message, usage: true, unsupported: option.spelling };
    }
  }
  settings.operands = parsed.operands;
  return { ok: true, settings };
}
