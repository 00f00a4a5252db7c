/**
 * `ulimit`: reports this process's limits (read from `/proc/self/limits` through the
 * gate; `unlimited` when it cannot be read). Setting a limit is remembered for the
 * shell's later reports but not applied: the interpreter cannot change its own limits.
 */

import { readAndClose } from "../io/gate.js";
import type { Builtin, BuiltinContext } from "./builtin-context.js";

/** Letter → `/proc/self/limits` row, and the unit bash reports in. */
const LIMITS: Readonly<Record<string, { row: string; scale: number; title: string }>> = {
  c: { row: "Max core file size", scale: 1024, title: "core file size (blocks, -c)" },
  d: { row: "Max data size", scale: 1024, title: "data seg size (kbytes, -d)" },
  e: { row: "Max nice priority", scale: 1, title: "scheduling priority (-e)" },
  f: { row: "Max file size", scale: 1024, title: "file size (blocks, -f)" },
  i: { row: "Max pending signals", scale: 1, title: "pending signals (-i)" },
  l: { row: "Max locked memory", scale: 1024, title: "max locked memory (kbytes, -l)" },
  m: { row: "Max resident set", scale: 1024, title: "max memory size (kbytes, -m)" },
  n: { row: "Max open files", scale: 1, title: "open files (-n)" },
  q: { row: "Max msgqueue size", scale: 1, title: "POSIX message queues (bytes, -q)" },
  r: { row: "Max realtime priority", scale: 1, title: "real-time priority (-r)" },
  s: { row: "Max stack size", scale: 1024, title: "stack size (kbytes, -s)" },
  t: { row: "Max cpu time", scale: 1, title: "cpu time (seconds, -t)" },
  u: { row: "Max processes", scale: 1, title: "max user processes (-u)" },
  v: { row: "Max address space", scale: 1024, title: "virtual memory (kbytes, -v)" },
  x: { row: "Max file locks", scale: 1, title: "file locks (-x)" },
};

async function systemLimits(context: BuiltinContext, hard: boolean): Promise<Map<string, string>> {
  const limits = new Map<string, string>();
  const opened = await context.interpreter.access.open("/proc/self/limits");
  if (!opened.ok) return limits;
  const text = (await readAndClose(opened.value)).toString("utf8");
  for (const [letter, limit] of Object.entries(LIMITS)) {
    const line = text.split("\n").find((row) => row.startsWith(limit.row));
    const fields = line?.slice(26).trim().split(/\s+/) ?? [];
    const value = fields[hard ? 1 : 0];
    if (value === undefined) continue;
    limits.set(
      letter,
      value === "unlimited" ? value : String(Math.floor(Number(value) / limit.scale)),
    );
  }
  return limits;
}

export const ulimit: Builtin = async (context, args) => {
  let hard = false;
  let all = false;
  const letters: string[] = [];
  let value: string | undefined;
  for (const arg of args) {
    if (/^-[A-Za-z]+$/.test(arg)) {
      for (const flag of arg.slice(1)) {
        if (flag === "H") hard = true;
        else if (flag === "S") hard = false;
        else if (flag === "a") all = true;
        else if (LIMITS[flag] !== undefined) letters.push(flag);
        else {
          context.error(`ulimit: -${flag}: invalid option`);
          context.stderr.write("ulimit: usage: ulimit [-SHabcdefiklmnpqrstuvxPRT] [limit]\n");
          return 2;
        }
      }
    } else value = arg;
  }
  if (letters.length === 0) letters.push("f");
  const remembered = context.state.limits;
  if (value !== undefined) {
    if (value !== "unlimited" && !/^[0-9]+$/.test(value)) {
      context.error(`ulimit: ${value}: invalid number`);
      return 1;
    }
    for (const letter of letters) remembered.set(letter, value);
    return 0;
  }
  const system = await systemLimits(context, hard);
  const shown = all ? Object.keys(LIMITS) : letters;
  for (const letter of shown) {
    const current = remembered.get(letter) ?? system.get(letter) ?? "unlimited";
    const title = LIMITS[letter]?.title ?? letter;
    context.stdout.write(
      all || shown.length > 1 ? `${title.padEnd(32)}${current}\n` : `${current}\n`,
    );
  }
  return 0;
};
