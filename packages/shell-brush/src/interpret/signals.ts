/** Control flow carried by exceptions through the tree walk. */

export class ExitSignal {
  constructor(readonly status: number) {}
}

export class ReturnSignal {
  constructor(readonly status: number) {}
}

export class LoopSignal {
  constructor(
    readonly kind: "break" | "continue",
    public levels: number,
  ) {}
}

/** An expansion error: printed as `bash: line N: <message>`; a non-interactive shell exits. */
export class ExpansionError extends Error {
  constructor(
    message: string,
    /**
     * `fatal`: a non-interactive shell exits; `line`: the rest of the current input line is
     * abandoned (bash's return to the top level); `command`: only the command fails.
     */
    readonly kind: "fatal" | "line" | "command" = "fatal",
  ) {
    super(message);
  }
}

/** Abandon the rest of the current top-level input line (bash's jump to the top level). */
export class LineAbort {
  constructor(readonly status: number) {}
}

/**
 * A refused assignment statement (`X=2` to a readonly `X`): bash jumps to the top level, so
 * the rest of the current input line is abandoned with status 1 (a one-line `-c` script
 * ends there); a subshell ends with 1, and `eval` and `source` fail with 1.
 */
export class AssignmentAbort extends LineAbort {
  constructor() {
    super(1);
  }
}

/**
 * What a loop makes of something thrown out of its body: a `break`/`continue` meant for
 * it (its kind), or the same signal re-thrown — one level less — for an outer loop, or
 * anything else re-thrown as it is.
 */
export function caughtByLoop(signal: unknown): "break" | "continue" {
  if (!(signal instanceof LoopSignal)) throw signal;
  if (signal.levels > 1) {
    signal.levels -= 1;
    throw signal;
  }
  return signal.kind;
}
