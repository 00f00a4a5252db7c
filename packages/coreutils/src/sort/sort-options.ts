import type { ParsedOption } from "../options/option-spec.js";
import { parseOptions } from "../options/parse-options.js";
import { actedOnWhileReading } from "../options/read-first.js";
import { unsupportedOption } from "../options/usage-error.js";
import { isDefaultCompare, type KeyField, newKey } from "./key-field.js";
import { parseKeySpec, setOrdering } from "./key-spec.js";
import { SORT_SPEC } from "./sort-spec.js";

export interface SortSettings {
  keys: KeyField[];
  tab: number;
  reverse: boolean;
  stable: boolean;
  unique: boolean;
  check: "none" | "diagnose" | "quiet";
  output: string | undefined;
  operands: readonly string[];
}

/** `usage`: add "Try … --help"; every failure exits 2. */
export type SortParse =
  | { readonly ok: true; readonly settings: SortSettings }
  | {
      readonly ok: false;
      readonly message: string;
      readonly usage: boolean;
      readonly status?: number;
      /** The spelling of a GNU option this implementation does not carry. */
      readonly unsupported?: string;
    };

const fail = (message: string, usage = false): SortParse => ({
  ok: false,
  message: `${message}\n`,
  usage,
});

const unsupported = (spelling: string): SortParse => ({
  ok: false,
  message: unsupportedOption("sort", spelling),
  usage: true,
  unsupported: spelling,
});

function keyFlags(key: KeyField): string {
  let flags = "";
  if (key.skipStartBlanks || key.skipEndBlanks) flags += "b";
  if (key.foldCase) flags += "f";
  if (key.humanNumeric) flags += "h";
  if (key.numeric) flags += "n";
  if (key.reverse) flags += "r";
  if (key.version) flags += "V";
  return flags;
}

/** GNU: global ordering options flow into keys that set none of their own. */
function finishKeys(settings: SortSettings, global: KeyField): string | undefined {
  for (const key of settings.keys) {
    if (isDefaultCompare(key) && !key.reverse) {
      Object.assign(key, {
        ...global,
        startField: key.startField,
        startChar: key.startChar,
        endField: key.endField,
        endChar: key.endChar,
      });
    }
  }
  if (settings.keys.length === 0 && !isDefaultCompare(global)) settings.keys.push(global);
  for (const key of settings.keys) {
    if (Number(key.numeric) + Number(key.humanNumeric) + Number(key.version) > 1) {
      return `sort: options '-${keyFlags({ ...key, skipStartBlanks: false, skipEndBlanks: false, reverse: false })}' are incompatible`;
    }
  }
  return undefined;
}

function applyOption(
  settings: SortSettings,
  global: KeyField,
  option: ParsedOption,
): SortParse | undefined {
  const value = option.value ?? "";
  switch (option.key) {
    case "k": {
      const parsed = parseKeySpec(value);
      if (parsed.ok === "unsupported") return unsupported(`-k ...${parsed.letter}`);
      if (!parsed.ok) return fail(`sort: ${parsed.message}`);
      settings.keys.push(parsed.key);
      return undefined;
    }
    case "t": {
      if (value.length === 0) return fail("sort: empty tab");
      if (value.length > 1 && value !== "\\0") return fail(`sort: multi-character tab '${value}'`);
      const tab = value === "\\0" ? 0 : value.charCodeAt(0);
      if (settings.tab !== -1 && settings.tab !== tab) return fail("sort: incompatible tabs");
      settings.tab = tab;
      return undefined;
    }
    case "o":
      if (settings.output !== undefined && settings.output !== value)
        return fail("sort: multiple output files specified");
      settings.output = value;
      return undefined;
    case "check":
      if (option.value === undefined || option.value === "diagnose-first")
        settings.check = "diagnose";
      else if (value === "quiet" || value === "silent") settings.check = "quiet";
      else {
        const valid = "Valid arguments are:\n  - 'quiet', 'silent'\n  - 'diagnose-first'";
        // GNU's argmatch failure exits through usage(EXIT_FAILURE): status 1, not 2.
        const message = `sort: invalid argument '${value}' for '--check'\n${valid}\n`;
        return { ok: false, message, usage: true, status: 1 };
      }
      return undefined;
    case "c":
    case "C":
      settings.check = option.key === "c" ? "diagnose" : "quiet";
      return undefined;
    case "s":
      settings.stable = true;
      return undefined;
    case "u":
      settings.unique = true;
      return undefined;
    default: {
      if (option.key.length === 1 && "bfhnrV".includes(option.key)) {
        setOrdering(option.key, 0, global, "both");
        return undefined;
      }
      return unsupported(option.spelling);
    }
  }
}

export function parseSortOptions(argv: readonly string[]): SortParse {
  const parsed = parseOptions("sort", SORT_SPEC, argv);
  if (!parsed.ok) {
    const early = actedOnWhileReading(parsed.options);
    return {
      ok: false,
      message: parsed.message,
      usage: true,
      ...(early ? { unsupported: early } : {}),
    };
  }
  const settings: SortSettings = {
    keys: [],
    tab: -1,
    reverse: false,
    stable: false,
    unique: false,
    check: "none",
    output: undefined,
    operands: parsed.operands,
  };
  const global = newKey();
  for (const option of parsed.options) {
    const failure = applyOption(settings, global, option);
    if (failure !== undefined) return failure;
  }
  settings.reverse = global.reverse;
  const incompatible = finishKeys(settings, global);
  if (incompatible !== undefined) return fail(incompatible);
  if (settings.check !== "none" && settings.output !== undefined) {
    return fail(`sort: options '-${settings.check === "quiet" ? "C" : "c"}o' are incompatible`);
  }
  if (settings.check !== "none" && settings.operands.length > 1) {
    const flag = settings.check === "quiet" ? "C" : "c";
    return fail(`sort: extra operand '${settings.operands[1]}' not allowed with -${flag}`);
  }
  return { ok: true, settings };
}
