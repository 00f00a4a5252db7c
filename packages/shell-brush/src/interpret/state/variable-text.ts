/** How a variable prints: `declare -p` lines, `set` lines, and bash's value quoting. */
import { encodeShellText } from "@agent-bridle/bash";
import { arrayKeys, type Variable } from "./state.js";

/** bash's `declare -p` value quoting: `"…"` or `$'…'` when control characters appear. */
/** True when `value` holds a control or non-ASCII byte (bash quotes it as `$'…'` under LC_ALL=C). */
export function needsAnsiQuote(value: string): boolean {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are quoted
  return /[\x00-\x1f\x7f-\uffff]/.test(value);
}

/** `$'…'` with each control or non-ASCII byte escaped (`\n`, `\E`, `\303`). */
export function ansiQuote(value: string): string {
  return `$'${ansiEscape(value)}'`;
}

export function declareQuote(value: string): string {
  if (needsAnsiQuote(value)) return ansiQuote(value);
  return `"${value.replace(/(["\\$`])/g, "\\$1")}"`;
}

const NAMED_BYTES: Readonly<Record<number, string>> = {
  7: "\\a",
  8: "\\b",
  9: "\\t",
  10: "\\n",
  11: "\\v",
  12: "\\f",
  13: "\\r",
  27: "\\E",
  39: "\\'",
  92: "\\\\",
};

function ansiEscape(value: string): string {
  let out = "";
  for (const byte of encodeShellText(value)) {
    const named = NAMED_BYTES[byte];
    if (named !== undefined) out += named;
    else if (byte < 32 || byte >= 127) out += `\\${byte.toString(8).padStart(3, "0")}`;
    else out += String.fromCharCode(byte);
  }
  return out;
}

/** `set`/`declare` listing quoting (`name=value`). */
export function setQuote(value: string): string {
  if (value === "") return "''";
  if (needsAnsiQuote(value)) return ansiQuote(value);
  if (/^[A-Za-z0-9_./=:,+@%^-]+$/.test(value)) return value;
  if (value === "'") return "\\'";
  return `'${value.replace(/'/g, "'\\''")}'`;
}

export function attributeFlags(variable: Variable): string {
  let flags = "";
  if (variable.array !== null && !variable.assoc) flags += "a";
  if (variable.assoc) flags += "A";
  if (variable.integer) flags += "i";
  if (variable.lower) flags += "l";
  if (variable.nameref) flags += "n";
  if (variable.readonly) flags += "r";
  if (variable.trace === true) flags += "t";
  if (variable.upper) flags += "u";
  if (variable.exported) flags += "x";
  return flags;
}

/** bash's `sh_contains_shell_metas`: a key with one of these is printed double-quoted. */
function hasShellMetas(key: string): boolean {
  return /[ \t\n'"\\|&;()<>!{}*[?\]^$`]/.test(key) || /^[~#]/.test(key) || /[=:]~/.test(key);
}

/** An associative key as `declare -p` prints it: bare, or `"…"` when it holds metacharacters. */
function keyText(key: string): string {
  return hasShellMetas(key) ? `"${key.replace(/(["\\$`])/g, "\\$1")}"` : key;
}

function arrayText(variable: Variable): string {
  const array = variable.array ?? new Map<string, string>();
  const items = arrayKeys(variable).map(
    (key) => `[${variable.assoc ? keyText(key) : key}]=${declareQuote(array.get(key) ?? "")}`,
  );
  if (variable.assoc) return items.length === 0 ? "()" : `(${items.join(" ")} )`;
  return `(${items.join(" ")})`;
}

/** One `declare -p` line. */
export function declareLine(name: string, variable: Variable): string {
  const flags = attributeFlags(variable);
  const head = `declare -${flags === "" ? "-" : flags} ${name}`;
  if (variable.array !== null) {
    if (variable.declaredOnly && variable.array.size === 0) return head;
    return `${head}=${arrayText(variable)}`;
  }
  if (variable.declaredOnly || variable.value === null) return head;
  return `${head}=${declareQuote(variable.value)}`;
}

/** One `set`-style line (`declare` without arguments). */
export function setLine(name: string, variable: Variable): string | null {
  if (variable.declaredOnly) return null;
  if (variable.array !== null) return `${name}=${arrayText(variable)}`;
  if (variable.value === null) return null;
  return `${name}=${setQuote(variable.value)}`;
}
