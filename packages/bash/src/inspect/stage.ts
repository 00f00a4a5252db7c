/** One simple command of the script as an `InspectedCommand` (reference §7.1, §7.2). */
import type { Assignment, SimpleCommand } from "../parse/ast-command.js";
import type { Word } from "../parse/ast-word.js";
import { findDescendants } from "./find-actions.js";
import { checkHiddenEvaluation } from "./hidden-evaluation.js";
import { quoteSource, ShellInspectionError } from "./inspection-error.js";
import { type InspectionLevel, textOf } from "./level.js";
import { classifyProgram, programIdentity } from "./program-names.js";
import { inspectRedirect } from "./redirects.js";
import { staticWord } from "./static-word.js";
import type { InspectedCommand } from "./types.js";
import { inspectSubscript, inspectWord } from "./words.js";

function inspectAssignment(level: InspectionLevel, assignment: Assignment): void {
  if (assignment.index !== null) inspectSubscript(level, assignment.index);
  const value = assignment.value;
  if (value === null) return;
  if (value.type === "Word") {
    inspectWord(level, value, { splits: false });
    return;
  }
  for (const element of value.elements) {
    if (element.index !== null) inspectSubscript(level, element.index);
    inspectWord(level, element.value, { splits: true });
  }
}

function staticProgram(level: InspectionLevel, word: Word): string {
  const value = staticWord(word);
  if (!value.ok)
    throw new ShellInspectionError(
      `the command name ${quoteSource(textOf(level, word))} is not statically known: it ${value.reason}`,
    );
  return value.value;
}

/** `printf -v name` assigns a variable named by data; a dynamic first argument could be `-v`. */
function checkPrintf(level: InspectionLevel, words: readonly (Word | Assignment)[]): void {
  const first = words[1];
  if (first === undefined) return;
  const value = first.type === "Word" ? staticWord(first) : null;
  if (value === null || !value.ok)
    throw new ShellInspectionError(
      `printf with a dynamic first argument ${quoteSource(textOf(level, first))} could be \`-v\``,
    );
  if (value.value.startsWith("-v"))
    throw new ShellInspectionError(
      `printf -v assigns a variable the inventory cannot follow: ${quoteSource(textOf(level, first))}`,
    );
}

export function inspectStage(level: InspectionLevel, command: SimpleCommand): InspectedCommand {
  for (const assignment of command.assignments) inspectAssignment(level, assignment);
  const [first] = command.words;
  let program: string | null = null;
  if (first !== undefined) {
    if (first.type !== "Word")
      throw new ShellInspectionError(
        `the command name ${quoteSource(textOf(level, first))} is not statically known`,
      );
    program = staticProgram(level, first);
    const kind = classifyProgram(program);
    if (kind === "dispatcher")
      throw new ShellInspectionError(
        `${quoteSource(program)} can run a command that is absent from the inventory`,
      );
    if (kind === "interpreter")
      throw new ShellInspectionError(
        `${quoteSource(program)} is a shell or interpreter: what it runs is not in the inventory`,
      );
  }
  // Words and redirections interleave in the source; constructs are ordered by offset later.
  for (const word of command.words) {
    if (word.type === "Word") inspectWord(level, word, { splits: true });
    else inspectAssignment(level, word);
  }
  const redirects = command.redirects.map((redirect) => inspectRedirect(level, redirect));
  const identity = program === null ? null : programIdentity(program);
  if (identity === "printf") checkPrintf(level, command.words);
  if (identity !== null) checkHiddenEvaluation(level, identity, command.words);
  const descendants =
    identity === "find"
      ? findDescendants(
          level,
          command.words.map((word) => {
            if (word.type !== "Word")
              throw new ShellInspectionError(
                `find with a non-static argument ${quoteSource(textOf(level, word))}`,
              );
            return word;
          }),
        )
      : [];
  return {
    source: textOf(level, command),
    program,
    argv: command.words.map((word) => textOf(level, word)),
    redirects,
    descendant_execs: descendants,
  };
}
