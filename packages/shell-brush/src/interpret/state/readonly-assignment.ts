/**
 * Refused assignments (a readonly variable), as bash handles them: an assignment
 * statement (`X=2`, no command word) abandons the rest of the input line with status 1
 * (bash's jump to the top level: a one-line script ends), a command's own assignment
 * (`X=2 cmd`) is skipped and the command still runs.
 */

import type { ExecContext } from "../exec-context.js";
import type { Fds } from "../io/io.js";
import { AssignmentAbort } from "../signals.js";
import { CircularNameError, ReadonlyError } from "./state.js";

function isReadonlyRefusal(error: unknown): error is ReadonlyError {
  return error instanceof ReadonlyError && !(error instanceof CircularNameError);
}

/**
 * An error out of an assignment statement: a readonly refusal is reported and abandons
 * the input line with status 1 (`AssignmentAbort`); anything else is rethrown.
 */
export function assignmentStatementError(
  interpreter: ExecContext,
  fds: Fds,
  error: unknown,
): never {
  if (!isReadonlyRefusal(error)) throw error;
  interpreter.error(fds, error.message);
  throw new AssignmentAbort();
}

/** Run one of a command's own assignments; a readonly refusal is reported and skipped. */
export async function commandAssignment(
  interpreter: ExecContext,
  fds: Fds,
  assign: () => Promise<void>,
): Promise<void> {
  try {
    await assign();
  } catch (error) {
    if (!isReadonlyRefusal(error)) throw error;
    interpreter.error(fds, error.message);
  }
}
