/**
 * A word's value when it is fully known from the text (reference §7.2): only literal
 * text, escapes and plain quotes; no expansion of any kind, and nothing bash would
 * glob, brace-expand or tilde-expand.
 */
import type { Word, WordPart } from "../parse/ast-word.js";

export type StaticWord =
  | { readonly ok: true; readonly value: string }
  | { readonly ok: false; readonly reason: string };

const DYNAMIC_PART: Partial<Record<WordPart["type"], string>> = {
  ParameterExpansion: "a parameter expansion",
  CommandSubstitution: "a command substitution",
  ArithmeticExpansion: "an arithmetic expansion",
  ProcessSubstitution: "a process substitution",
  AnsiCQuoted: "ANSI-C quoting `$'…'`",
  LocaleQuoted: 'gettext quoting `$"…"`',
  ExtGlob: "an extended glob",
};

function partsValue(parts: readonly WordPart[]): StaticWord {
  let value = "";
  for (const part of parts) {
    switch (part.type) {
      case "Literal":
      case "Escaped":
      case "SingleQuoted":
        value += part.value;
        break;
      case "DoubleQuoted": {
        const inner = partsValue(part.parts);
        if (!inner.ok) return inner;
        value += inner.value;
        break;
      }
      default:
        return { ok: false, reason: `contains ${DYNAMIC_PART[part.type] ?? part.type}` };
    }
  }
  return { ok: true, value };
}

export function staticWord(word: Word): StaticWord {
  const value = partsValue(word.parts);
  if (!value.ok) return value;
  if (word.flags.glob) return { ok: false, reason: "contains an unquoted glob metacharacter" };
  if (word.flags.brace) return { ok: false, reason: "is subject to brace expansion" };
  if (word.flags.tilde) return { ok: false, reason: "starts with a tilde prefix" };
  return value;
}
