/** What a new shell starts with: its `$$` and the variables bash sets up itself. */
import { hostname } from "node:os";
import { setDynamicVariables } from "./dynamic-variables.js";
import { newVariable, type ShellState } from "./state.js";

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
    ["BASH_ARGV0", state.scriptName],
    ["BASH_LOADABLES_PATH", LOADABLES_PATH],
    ["COMP_WORDBREAKS", " \t\n\"'@><=;|&(:"],
    ["HISTCMD", "0"],
    ["HOSTNAME", hostname()],
    ["SHELL", "/bin/bash"],
    ["TERM", "dumb"],
  ];
  for (const [name, value] of defaults) if (state.get(name) === undefined) state.set(name, value);
  // A non-interactive shell has no prompts; SHLVL counts one more shell than its parent's.
  for (const name of ["PS1", "PS2"]) state.unset(name);
  const level = Number.parseInt(state.get("SHLVL") ?? "0", 10);
  state.set("SHLVL", String(Number.isNaN(level) || level < 0 ? 1 : level + 1)).exported = true;
  for (const name of ["OPTIND", "HISTCMD"]) markInteger(state, name);
  state.declareGlobal("OLDPWD").exported = true;
  setIds(state);
  for (const name of ["BASH_ALIASES", "BASH_CMDS"]) setEmptyArray(state, name, true);
  for (const name of ["BASH_ARGC", "BASH_ARGV"]) setEmptyArray(state, name, false);
  setDynamicVariables(state, newVariable);
  state.setArray(
    "BASH_VERSINFO",
    new Map(["5", "2", "15", "1", "release", "x86_64-pc-linux-gnu"].map((v, i) => [String(i), v])),
    false,
  );
  const versinfo = state.lookupRaw("BASH_VERSINFO");
  if (versinfo !== undefined) versinfo.readonly = true;
}

const LOADABLES_PATH =
  "/usr/local/lib/bash:/usr/lib/bash:/opt/local/lib/bash:/usr/pkg/lib/bash:/opt/pkg/lib/bash:.";

function markInteger(state: ShellState, name: string): void {
  const variable = state.lookupRaw(name);
  if (variable !== undefined) variable.integer = true;
}

function setEmptyArray(state: ShellState, name: string, assoc: boolean): void {
  if (state.lookupRaw(name) !== undefined) return;
  state.setArray(name, new Map(), assoc);
}

/** `UID`, `EUID`, `PPID` (read-only integers) and `GROUPS`, from the process running the shell. */
function setIds(state: ShellState): void {
  const uid = process.getuid?.() ?? 0;
  const ids: [string, number][] = [
    ["UID", uid],
    ["EUID", process.geteuid?.() ?? uid],
    ["PPID", process.pid],
  ];
  for (const [name, value] of ids) {
    const variable = state.set(name, String(value));
    variable.integer = true;
    variable.readonly = true;
  }
  const groups = process.getgroups?.() ?? [process.getgid?.() ?? 0];
  state.setArray(
    "GROUPS",
    new Map(groups.slice(0, 1).map((id, i) => [String(i), String(id)])),
    false,
  );
}
