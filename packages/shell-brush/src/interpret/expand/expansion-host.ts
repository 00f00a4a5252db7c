import type { Script } from "@agent-bridle/bash";
import type { ShellAccess } from "../io/shell-access.js";
import type { ShellState } from "../state/state.js";

/** What expansion needs from the interpreter. */
export interface ExpansionHost {
  readonly state: ShellState;
  /** The gate pathname expansion lists through (and `~user` reads `/etc/passwd` with). */
  readonly access: ShellAccess;
  /** Report a warning as bash does (`bash: line N: warning: …`), without failing. */
  warn(message: string): void;
  /** The current line (`$LINENO`). */
  readonly line: () => number;
  /** Run a command substitution's script in a forked state; its stdout. */
  substitute(script: Script): Promise<string>;
  /** `<(…)` / `>(…)`: a path that reads the script's output or feeds its input. */
  processSubstitute(script: Script, direction: "<" | ">"): Promise<string>;
}
