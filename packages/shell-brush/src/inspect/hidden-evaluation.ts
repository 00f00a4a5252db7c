/**
 * Builtins whose literal arguments bash can still evaluate as code, so that what runs
 * is absent from the inventory although nothing in the text looks dynamic. Beyond the
 * reference's list (§7.2), each shown with real bash:
 * - `let 'x[$(cmd)]=1'` and an assignment to a `declare -i` variable evaluate arithmetic,
 *   whose array subscripts expand command substitutions;
 * - `hash -p /path name` and `alias name=…` make `name` run something other than `name`;
 * - `mapfile -C callback` / `readarray -C` evaluate the callback text.
 */
import type { Assignment } from "../parse/ast-command.js";
import type { Word } from "../parse/ast-word.js";
import { quoteSource, ShellInspectionError } from "./inspection-error.js";
import { type InspectionLevel, textOf } from "./level.js";
import { staticWord } from "./static-word.js";

const DECLARATIONS = new Set(["declare", "typeset", "local", "export", "readonly"]);

function refuse(level: InspectionLevel, word: Word | Assignment, why: string): never {
  throw new ShellInspectionError(`${why}: ${quoteSource(textOf(level, word))}`);
}

/** The option words (before `--` or the first operand) of a builtin's argv. */
function options(words: readonly (Word | Assignment)[]): (Word | Assignment)[] {
  const result: (Word | Assignment)[] = [];
  for (const word of words.slice(1)) {
    if (word.type !== "Word") break;
    const value = staticWord(word);
    if (value.ok && (value.value === "--" || !/^[-+]/.test(value.value))) break;
    result.push(word);
  }
  return result;
}

/** Throws when `identity`'s literal arguments could run code the inventory does not list. */
export function checkHiddenEvaluation(
  level: InspectionLevel,
  identity: string,
  words: readonly (Word | Assignment)[],
): void {
  const first = words[0];
  if (first === undefined) return;
  if (identity === "let")
    refuse(level, first, "`let` evaluates its arguments as arithmetic, which can run commands");
  if (identity === "alias") refuse(level, first, "`alias` makes a command name run something else");
  const isDeclaration = DECLARATIONS.has(identity);
  const flagged =
    identity === "hash"
      ? "p"
      : identity === "mapfile" || identity === "readarray"
        ? "C"
        : isDeclaration
          ? "i"
          : null;
  if (flagged === null) return;
  for (const option of options(words)) {
    const value = option.type === "Word" ? staticWord(option) : null;
    if (value === null || !value.ok) refuse(level, option, `\`${identity}\` with a dynamic option`);
    if (value.value.startsWith("-") && value.value.slice(1).includes(flagged))
      refuse(
        level,
        option,
        isDeclaration
          ? `\`${identity} -i\` makes later assignments arithmetic, which can run commands`
          : identity === "hash"
            ? "`hash -p` makes a command name run another program"
            : `\`${identity} -C\` evaluates its callback as a command`,
      );
  }
}
