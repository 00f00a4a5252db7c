import type { Word } from "../subset/ast.js";
import { hasQuoting, isGlobWord } from "../subset/word-value.js";
import type { PatternToken } from "./pattern-expansion.js";

/** Characters bash would split on (default `IFS`) or treat as a pattern in an unquoted value. */
const SPLIT_OR_GLOB = /[ \t\n*?[\\]/;

export interface ExpansionEnvironment {
  /** Exactly the variables the child receives, plus `PWD`. */
  readonly variables: Readonly<Record<string, string>>;
  readonly allowlist: ReadonlySet<string>;
}

export type WordExpansion =
  | {
      readonly ok: true;
      /** Quote-removed text (the literal bash passes when a pattern matches nothing). */
      readonly text: string;
      /** Pattern tokens when the word is subject to pathname expansion. */
      readonly pattern: readonly PatternToken[] | undefined;
      /** Bash removes an unquoted word that expands to nothing. */
      readonly vanishes: boolean;
    }
  | {
      readonly ok: false;
      readonly reason: "not-allowlisted" | "would-split";
      readonly name: string;
    };

function charTokens(value: string, quoted: boolean, into: PatternToken[]): void {
  for (const char of value) into.push({ type: "char", value: char, quoted });
}

/**
 * Tilde, parameter expansion and quote removal of one word, exactly as bash for the
 * accepted subset: a variable outside the allowlist, or an unquoted value bash would
 * field-split or glob (case 44), is refused rather than reinterpreted.
 */
export function expandWord(word: Word, env: ExpansionEnvironment): WordExpansion {
  const tokens: PatternToken[] = [];
  const variable = (name: string, quoted: boolean): WordExpansion | undefined => {
    if (!env.allowlist.has(name)) return { ok: false, reason: "not-allowlisted", name };
    const value = env.variables[name] ?? "";
    if (!quoted && SPLIT_OR_GLOB.test(value)) return { ok: false, reason: "would-split", name };
    charTokens(value, quoted, tokens);
    return undefined;
  };
  for (const part of word.parts) {
    switch (part.type) {
      case "literal":
        charTokens(part.value, false, tokens);
        break;
      case "escaped":
      case "single-quoted":
        charTokens(part.value, true, tokens);
        break;
      case "glob":
        tokens.push({ type: "glob", value: part.value });
        break;
      case "tilde": {
        if (!env.allowlist.has("HOME"))
          return { ok: false, reason: "not-allowlisted", name: "HOME" };
        charTokens(env.variables.HOME ?? "", true, tokens);
        break;
      }
      case "variable": {
        const refused = variable(part.name, part.quoted);
        if (refused) return refused;
        break;
      }
      case "double-quoted":
        for (const inner of part.parts) {
          if (inner.type === "variable") {
            const refused = variable(inner.name, true);
            if (refused) return refused;
          } else charTokens(inner.value, true, tokens);
        }
        break;
    }
  }
  const text = tokens.map((token) => token.value).join("");
  const tilde = word.parts.some((part) => part.type === "tilde");
  return {
    ok: true,
    text,
    pattern: isGlobWord(word) ? tokens : undefined,
    vanishes: text === "" && !hasQuoting(word) && !tilde,
  };
}
