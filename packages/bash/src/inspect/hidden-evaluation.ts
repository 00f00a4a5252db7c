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

/** Builtins refused outright. */
const ALWAYS: Record<string, string> = {
  let: "`let` evaluates its arguments as arithmetic, which can run commands",
  alias: "`alias` makes a command name run something else",
};

const INTEGER = "makes later assignments arithmetic, which can run commands";

/** Builtins refused with one option letter: the letter and why. */
const WITH_OPTION: Record<string, { readonly letter: string; readonly why: string }> = {
  declare: { letter: "i", why: `\`declare -i\` ${INTEGER}` },
  typeset: { letter: "i", why: `\`typeset -i\` ${INTEGER}` },
  local: { letter: "i", why: `\`local -i\` ${INTEGER}` },
  export: { letter: "i", why: `\`export -i\` ${INTEGER}` },
  readonly: { letter: "i", why: `\`readonly -i\` ${INTEGER}` },
  hash: { letter: "p", why: "`hash -p` makes a command name run another program" },
  mapfile: { letter: "C", why: "`mapfile -C` evaluates its callback as a command" },
  readarray: { letter: "C", why: "`readarray -C` evaluates its callback as a command" },
};

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
  const always = Object.hasOwn(ALWAYS, identity) ? ALWAYS[identity] : undefined;
  if (always !== undefined) refuse(level, first, always);
  const flagged = Object.hasOwn(WITH_OPTION, identity) ? WITH_OPTION[identity] : undefined;
  if (flagged === undefined) return;
  for (const option of options(words)) {
    const value = option.type === "Word" ? staticWord(option) : null;
    if (value === null || !value.ok) refuse(level, option, `\`${identity}\` with a dynamic option`);
    if (value.value.startsWith("-") && value.value.slice(1).includes(flagged.letter))
      refuse(level, option, flagged.why);
  }
}
