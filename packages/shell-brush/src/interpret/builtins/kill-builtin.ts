/**
 * `kill`: signal specifications as bash reads them, `-l`. The interpreter has no jobs of
 * its own to signal and no authority over other processes: a signal to the shell itself
 * (`$$`) runs its trap (`''` ignores it), or else ends the script with 128 + the
 * signal's number; any other process is refused.
 */

import { ExitSignal } from "../signals.js";
import type { Builtin } from "./builtin-context.js";
import { SIGNALS } from "./trap.js";

function signalNumber(spec: string): number | null {
  if (/^[0-9]+$/.test(spec)) {
    const number = Number(spec);
    return number <= SIGNALS.length ? number : null;
  }
  const upper = spec.toUpperCase();
  const index = SIGNALS.indexOf(upper.startsWith("SIG") ? upper : `SIG${upper}`);
  return index < 0 ? null : index + 1;
}

/** Signals whose default action is to do nothing. */
const IGNORED_BY_DEFAULT = new Set(["SIGCHLD", "SIGURG", "SIGWINCH", "SIGCONT"]);

export const kill: Builtin = async (context, args) => {
  let signal = 15;
  let index = 0;
  const first = args[0];
  if (first === "-l" || first === "-L") {
    const rest = args.slice(1);
    if (rest.length === 0) {
      const lines = SIGNALS.map((name, position) => `${String(position + 1).padStart(2)}) ${name}`);
      context.stdout.write(`${lines.join("\t")}\n`);
      return 0;
    }
    for (const spec of rest) {
      const number = /^[0-9]+$/.test(spec) ? Number(spec) % 128 : signalNumber(spec);
      const name = number === null ? undefined : SIGNALS[number - 1];
      if (name === undefined || number === null) {
        context.error(`kill: ${spec}: invalid signal specification`);
        return 1;
      }
      context.stdout.write(/^[0-9]+$/.test(spec) ? `${name.slice(3)}\n` : `${number}\n`);
    }
    return 0;
  }
  if (first === "-s" || first === "-n") {
    const spec = args[1] ?? "";
    const number = signalNumber(spec);
    if (number === null) {
      context.error(`kill: ${spec}: invalid signal specification`);
      return 1;
    }
    signal = number;
    index = 2;
  } else if (first !== undefined && /^-./.test(first) && first !== "--") {
    const number = signalNumber(first.slice(1));
    if (number === null) {
      context.error(`kill: ${first.slice(1)}: invalid signal specification`);
      return 1;
    }
    signal = number;
    index = 1;
  }
  if (args[index] === "--") index += 1;
  const targets = args.slice(index);
  if (targets.length === 0) {
    context.error(
      "kill: usage: kill [-s sigspec | -n signum | -sigspec] pid | jobspec ... or kill -l [sigspec]",
    );
    return 2;
  }
  let status = 0;
  for (const target of targets) {
    if (target === String(context.state.pid)) {
      const name = SIGNALS[signal - 1] ?? "";
      if (signal === 0 || IGNORED_BY_DEFAULT.has(name)) continue;
      const action = context.state.traps.get(name);
      if (action === "") continue;
      if (action !== undefined) {
        await context.interpreter.runTrap(name, context.fds);
        continue;
      }
      throw new ExitSignal(128 + signal);
    }
    if (!/^-?[0-9]+$/.test(target)) {
      context.error(`kill: ${target}: arguments must be process or job IDs`);
    } else context.error(`kill: (${target}) - No such process`);
    status = 1;
  }
  return status;
};
