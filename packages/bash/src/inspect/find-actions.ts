/**
 * `find`'s own children (reference §7.3): each `-exec`, `-execdir`, `-ok` or `-okdir`
 * action starts a program that the external `find` spawns itself, out of the bash
 * engine's sight. Its argv runs to the terminator: `;`, or a `+` directly after `{}`.
 */
import type { Word } from "../parse/ast-word.js";
import { quoteSource, ShellInspectionError } from "./inspection-error.js";
import { type InspectionLevel, textOf } from "./level.js";
import { classifyProgram } from "./program-names.js";
import { staticWord } from "./static-word.js";
import type { DescendantExec } from "./types.js";
import { findActionWarning } from "./warnings.js";

const ACTIONS = new Set(["-exec", "-execdir", "-ok", "-okdir"]);

export const FIND_DESCENDANT_REASON =
  "the external find process spawns this program itself, so the bash engine cannot check it; only the sandbox confines it";

function staticArgument(level: InspectionLevel, word: Word): string {
  const value = staticWord(word);
  if (!value.ok)
    throw new ShellInspectionError(
      `find with a non-static argument ${quoteSource(textOf(level, word))}: it ${value.reason}`,
    );
  return value.value;
}

/** The descendants of a `find` stage; `words` are its argv words, `find` first. */
export function findDescendants(level: InspectionLevel, words: readonly Word[]): DescendantExec[] {
  const values = words.map((word) => staticArgument(level, word));
  const descendants: DescendantExec[] = [];
  for (let index = 1; index < words.length; index += 1) {
    const action = values[index] as string;
    if (!ACTIONS.has(action)) continue;
    const actionWord = words[index] as Word;
    const programIndex = index + 1;
    const program = values[programIndex];
    if (program === undefined || program === ";")
      throw new ShellInspectionError(`find ${action} without a program`);
    if (program === "") throw new ShellInspectionError(`find ${action} with an empty program`);
    let end = programIndex;
    while (
      end < words.length &&
      values[end] !== ";" &&
      !(values[end] === "+" && end > programIndex && values[end - 1] === "{}")
    ) {
      end += 1;
    }
    if (end >= words.length)
      throw new ShellInspectionError(
        `find ${action} without its terminator (\`;\` or \`{} +\`): ${quoteSource(textOf(level, { start: actionWord.start, end: (words[words.length - 1] as Word).end }))}`,
      );
    if (classifyProgram(program) !== "ordinary")
      throw new ShellInspectionError(
        `find ${action} runs ${quoteSource(program)}, which can run commands absent from the inventory`,
      );
    const terminator = words[end] as Word;
    descendants.push({
      program,
      argv: words.slice(programIndex, end).map((word) => textOf(level, word)),
      source: level.input.slice(actionWord.start, terminator.end),
      reason: FIND_DESCENDANT_REASON,
    });
    level.warnings.add(findActionWarning(action, FIND_DESCENDANT_REASON));
    index = end;
  }
  return descendants;
}
