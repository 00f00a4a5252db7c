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

/**
 * A refused assignment statement (`X=2` to a readonly `X`): bash's non-interactive shell
 * exits with status 1, a subshell ends with it, and `eval` and `source` (which catch
 * bash's jump to the top level) fail with 1.
 */
export class AssignmentAbort extends ExitSignal {
  constructor() {
    super(1);
  }
}

/** Abandon the rest of the current top-level input line (bash's jump to the top level). */
export class LineAbort {
  constructor(readonly status: number) {}
}
