import type { Word } from "./ast.js";
import { LABELS } from "./labels.js";
import { unsupportedConstruct } from "./refusal.js";

/**
 * Refuses a word that bash might brace-expand: an unquoted `{` followed, in the same
 * word, by an unquoted `}` with anything in between (`{a,b}`, `{1..3}`, conservatively
 * also `{a}`). An empty `{}` (as in `find -exec … {} \;`) is literal to bash and kept,
 * but it does not close a brace: `{}b,c}` is refused (bash expands it).
 */
export function checkBraces(word: Word): void {
  let openAt = -1;
  let content = false;
  for (const part of word.parts) {
    if (part.type !== "literal") {
      if (openAt >= 0) content = true;
      continue;
    }
    const exact = part.end - part.start === part.value.length;
    for (let index = 0; index < part.value.length; index += 1) {
      const char = part.value[index];
      const at = exact ? part.start + index : part.start;
      if (char === "{") {
        if (openAt >= 0) content = true;
        else openAt = at;
      } else if (char === "}" && openAt >= 0) {
        if (content)
          throw unsupportedConstruct(LABELS.braceExpansion, openAt, exact ? at + 1 : part.end);
        // `{}` does not close: bash reads this `}` as the first member's text, so
        // `{}b,c}` still expands (to `}b c`). Only a later `}` can close it.
        content = true;
      } else if (openAt >= 0) {
        content = true;
      }
    }
  }
}
