/** `trap`: conditions by name or number, `-p` listing, `-l`. */
import type { BuiltinContext } from "./builtin-context.js";

export const SIGNALS: readonly string[] = [
  "SIGHUP",
  "SIGINT",
  "SIGQUIT",
  "SIGILL",
  "SIGTRAP",
  "SIGABRT",
  "SIGBUS",
  "SIGFPE",
  "SIGKILL",
  "SIGUSR1",
  "SIGSEGV",
  "SIGUSR2",
  "SIGPIPE",
  "SIGALRM",
  "SIGTERM",
  "SIGSTKFLT",
  "SIGCHLD",
  "SIGCONT",
  "SIGSTOP",
  "SIGTSTP",
  "SIGTTIN",
  "SIGTTOU",
  "SIGURG",
  "SIGXCPU",
  "SIGXFSZ",
  "SIGVTALRM",
  "SIGPROF",
  "SIGWINCH",
  "SIGIO",
  "SIGPWR",
  "SIGSYS",
];

const PSEUDO = ["EXIT", "ERR", "RETURN", "DEBUG"];

/** Canonical condition name (`EXIT`, `SIGINT`, …) or null when unknown. */
export function conditionName(spec: string): string | null {
  if (/^[0-9]+$/.test(spec)) {
    const number = Number(spec);
    if (number === 0) return "EXIT";
    return SIGNALS[number - 1] ?? null;
  }
  const upper = spec.toUpperCase();
  if (PSEUDO.includes(upper)) return upper;
  const withPrefix = upper.startsWith("SIG") ? upper : `SIG${upper}`;
  return SIGNALS.includes(withPrefix) ? withPrefix : null;
}

function quote(text: string): string {
  return `'${text.replace(/'/g, "'\\''")}'`;
}

function order(name: string): number {
  if (name === "EXIT") return 0;
  const index = SIGNALS.indexOf(name);
  return index >= 0 ? index + 1 : 100 + PSEUDO.indexOf(name);
}

export function trapBuiltin(context: BuiltinContext, rawArgs: readonly string[]): number {
  let args = [...rawArgs];
  const traps = context.state.traps;
  if (args[0] === "-l") {
    const lines = SIGNALS.map((name, index) => `${String(index + 1).padStart(2)}) ${name}`);
    context.stdout.write(`${lines.join("\t")}\n`);
    return 0;
  }
  if (args[0] === "--") args = args.slice(1);
  if (args.length === 0 || args[0] === "-p") {
    const shown = new Map([...context.state.inheritedTraps, ...traps]);
    const wanted = args.length > 1 ? args.slice(1) : null;
    let status = 0;
    const names =
      wanted === null
        ? [...shown.keys()].sort((left, right) => order(left) - order(right))
        : wanted.map((spec) => {
            const name = conditionName(spec);
            if (name === null) {
              context.error(`trap: ${spec}: invalid signal specification`);
              status = 1;
            }
            return name ?? "";
          });
    for (const name of names) {
      const action = shown.get(name);
      if (action !== undefined) context.stdout.write(`trap -- ${quote(action)} ${name}\n`);
    }
    return status;
  }
  let action: string | null = args[0] as string;
  let specs = args.slice(1);
  if (specs.length === 0 || action === "-") {
    if (specs.length === 0) specs = [action];
    action = null;
  } else if (/^[0-9]+$/.test(action) && conditionName(action) !== null) {
    specs = args;
    action = null;
  }
  let status = 0;
  for (const spec of specs) {
    const name = conditionName(spec);
    if (name === null) {
      context.error(`trap: ${spec}: invalid signal specification`);
      status = 1;
      continue;
    }
    context.state.inheritedTraps.delete(name);
    if (action === null) traps.delete(name);
    else traps.set(name, action);
  }
  return status;
}
