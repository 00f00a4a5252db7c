/**
 * Which statically known programs make an inventory incomplete (reference §7.2): a
 * dispatcher or an interpreter runs commands that are not in the script's text. Names
 * compare by basename, case-insensitively, with a Windows executable suffix removed.
 */

/** Builtins and programs that run a command given to them as data. */
const DISPATCHERS = new Set([
  "eval",
  "source",
  ".",
  "trap",
  "fc",
  "builtin",
  "command",
  "env",
  "xargs",
  "exec",
  "parallel",
  "sudo",
  "doas",
  "nice",
  "nohup",
  "setsid",
  "time",
  "timeout",
  "stdbuf",
  "chroot",
  "su",
  "runuser",
  "busybox",
  "watch",
]);

/** Shells and interpreters: what they run is their argument's content. */
const INTERPRETERS = new Set([
  "sh",
  "ash",
  "bash",
  "dash",
  "zsh",
  "ksh",
  "ksh93",
  "mksh",
  "fish",
  "csh",
  "tcsh",
  "nu",
  "elvish",
  "xonsh",
  "pwsh",
  "powershell",
  "cmd",
  "python",
  "python2",
  "python3",
  "pypy",
  "pypy3",
  "perl",
  "ruby",
  "php",
  "lua",
  "luajit",
  "node",
  "nodejs",
  "deno",
  "bun",
  "tclsh",
  "wish",
  "awk",
  "gawk",
  "mawk",
  "nawk",
  "r",
  "rscript",
  "julia",
  "osascript",
]);

/** `python3.12`, `perl5.36`, `node-20`: a family name and a suffix of digits, `.` and `-` with a digit. */
const VERSIONED = /^(?:python|pypy|perl|ruby|php|lua|node)[0-9.-]*[0-9][0-9.-]*$/;

const WINDOWS_SUFFIX = /\.(?:exe|com|bat|cmd)$/;

/** The name a program is known by: basename (either slash), lower case, no `.exe`-like suffix. */
export function programIdentity(program: string): string {
  const slash = Math.max(program.lastIndexOf("/"), program.lastIndexOf("\\"));
  const base = program.slice(slash + 1).toLowerCase();
  return base === "." ? base : base.replace(WINDOWS_SUFFIX, "");
}

export type ProgramClass = "dispatcher" | "interpreter" | "ordinary";

export function classifyProgram(program: string): ProgramClass {
  const identity = programIdentity(program);
  if (DISPATCHERS.has(identity)) return "dispatcher";
  if (INTERPRETERS.has(identity) || VERSIONED.test(identity)) return "interpreter";
  return "ordinary";
}
