/** What a new shell starts with: its `$$` and the variables bash sets up itself. */
import type { ShellState } from "./state.js";

let lastShellPid = 4235;

/**
 * `$$` of a new shell: distinct for every run in this process, so concurrent runs that
 * name files after `$$` (as scripts do under /tmp) do not collide.
 */
export function nextShellPid(): number {
  lastShellPid = lastShellPid >= 400_000 ? 4242 : lastShellPid + 7;
  return lastShellPid;
}

/** The variables bash sets up itself (values as a non-interactive bash 5.2 has them). */
export function setInitialVariables(state: ShellState): void {
  const defaults: [string, string][] = [
    ["IFS", " \t\n"],
    ["OPTIND", "1"],
    ["OPTERR", "1"],
    ["PS4", "+ "],
    ["BASH", state.scriptName],
    ["BASH_VERSION", "5.2.15(1)-release"],
    ["OSTYPE", "linux-gnu"],
    ["HOSTTYPE", "x86_64"],
    ["MACHTYPE", "x86_64-pc-linux-gnu"],
    ["SHLVL", "1"],
  ];
  for (const [name, value] of defaults) if (state.get(name) === undefined) state.set(name, value);
  state.setArray(
    "BASH_VERSINFO",
    new Map(["5", "2", "15", "1", "release", "x86_64-pc-linux-gnu"].map((v, i) => [String(i), v])),
    false,
  );
  const versinfo = state.lookupRaw("BASH_VERSINFO");
  if (versinfo !== undefined) versinfo.readonly = true;
}
