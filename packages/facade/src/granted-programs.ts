import type { Grant } from "@agent-bridle/core";

/** The tools whose description names the granted programs: the session's shell. */
export const SHELL_TOOL_NAME = "shell";

/**
 * One sentence for the `shell` tool's description saying which programs the session's
 * grant lets it start, so a model need not guess (issue 17 point 9).
 */
export function grantedProgramsText(exec: Grant["caveats"]["exec"]): string {
  if (exec === "all") return "Programs granted: any program on the trusted PATH.";
  if (exec.only.length === 0) {
    return "Programs granted: none (only shell builtins run; every other command is refused).";
  }
  return `Programs granted: ${exec.only.join(", ")} (any other program is refused).`;
}
