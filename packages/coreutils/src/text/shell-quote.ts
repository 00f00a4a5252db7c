// GNU quotearg's shell-escape quoting in the C locale (gnulib quotearg.c), the style
// coreutils uses for names in diagnostics: `quotef` (quote only when needed, ':' too)
// and `quoteaf` (always quote).

const SHELL_SPECIAL = new Set([...' !"$&()*;<=>[^`|\\?']);
const FIRST_ONLY_SPECIAL = new Set(["#", "~"]);
// Characters that need no change inside double quotes (c-maybe style).
const DOUBLE_QUOTE_SAFE = /^[\x20-\x7e]*$/;
const DOUBLE_QUOTE_UNSAFE = /["$`\\!]/;
const ESCAPES: Readonly<Record<number, string>> = {
  7: "a",
  8: "b",
  9: "t",
  10: "n",
  11: "v",
  12: "f",
  13: "r",
};

export interface QuoteOptions {
  /** Always wrap in quotes (`quoteaf`), not only when needed (`quotef`). */
  readonly always?: boolean;
  /** Treat ':' as needing quotes (the `_colon` variants used by `quotef`). */
  readonly colon?: boolean;
}

function needsQuoting(name: string, colon: boolean): boolean {
  if (name.length === 0) return true;
  for (let index = 0; index < name.length; index += 1) {
    const char = name[index] as string;
    const code = name.charCodeAt(index);
    if (code < 0x20 || code > 0x7e || char === "'") return true;
    if (SHELL_SPECIAL.has(char) || (colon && char === ":")) return true;
    if (index === 0 && FIRST_ONLY_SPECIAL.has(char)) return true;
  }
  return name === "{" || name === "}";
}

function singleQuoted(name: string): string {
  let out = "'";
  let pendingEscapeEnd = false;
  for (let index = 0; index < name.length; index += 1) {
    const code = name.charCodeAt(index);
    const printable = code >= 0x20 && code <= 0x7e;
    if (!printable) {
      if (!pendingEscapeEnd) out += "'$'";
      pendingEscapeEnd = true;
      const letter = ESCAPES[code];
      out += letter === undefined ? `\\${code.toString(8).padStart(3, "0")}` : `\\${letter}`;
      continue;
    }
    if (pendingEscapeEnd) {
      out += "''";
      pendingEscapeEnd = false;
    }
    out += code === 0x27 ? "'\\''" : name[index];
  }
  return `${out}'`;
}

/** A name (a latin1 "byte string") quoted as GNU's diagnostics show it. */
export function shellQuote(name: string, options: QuoteOptions = {}): string {
  const colon = options.colon ?? false;
  if (options.always !== true && !needsQuoting(name, colon)) return name;
  if (name.includes("'") && DOUBLE_QUOTE_SAFE.test(name) && !DOUBLE_QUOTE_UNSAFE.test(name)) {
    return `"${name}"`;
  }
  return singleQuoted(name);
}

/** `quotef`: quoted only when needed, ':' included (cat, wc, sort diagnostics). */
export const quotef = (name: string): string => shellQuote(name, { colon: true });

/** `quoteaf`: always quoted (ls, head diagnostics). */
export const quoteaf = (name: string): string => shellQuote(name, { always: true });
