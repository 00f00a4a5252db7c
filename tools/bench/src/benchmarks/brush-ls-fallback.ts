import type { RatioBenchmark } from "../benchmark.js";
import { brushRegistry } from "./brush-fixture.js";

// The cost of handing an in-process utility's unsupported option to the host program
// (issue 15, ADR 0015): `ls --color=never` (the option parser refuses, the engine looks
// `ls` up on PATH, exec-checks it and spawns it through the funnel) against
// `/usr/bin/ls --color=never` spelled by its path (only the lookup and the spawn), each 20
// times in one call. Each side has its own warm worker, which the other side's sample
// gives time to get ready. The in-process `ls /usr/share` of the same loop is checked to
// be faster in setup, so the fallback really spawns.
const ROUNDS = 20;
const loop = (command: string) =>
  `for (( i = 0; i < ${ROUNDS}; i++ )); do ${command} /usr/share > /dev/null; done`;
const warmSubject = brushRegistry(true);
const warmBaseline = brushRegistry(true);

async function call(command: string, warm = warmSubject): Promise<number> {
  await warm.tool.warmReady();
  const started = performance.now();
  const envelope = (await warm.registry.dispatch(
    "shell",
    { cmd: loop(command), timeout_secs: 300 },
    warm.grant,
  )) as { exit_code?: number; stderr?: string };
  if (envelope.exit_code !== 0) throw new Error(`${command} failed: ${JSON.stringify(envelope)}`);
  return performance.now() - started;
}

export const brushLsFallback: RatioBenchmark = {
  kind: "ratio",
  name: "brush-ls-fallback",
  description: `bash engine: ${ROUNDS}× \`ls --color=never\` (fallback to the host ls) vs ${ROUNDS}× \`/usr/bin/ls --color=never\`, one warm call each`,
  grant: "top()",
  mode: "shell-brush engine, one warm worker per side, no backend engaged (top grant)",
  target: { maxRatio: 1.15 },
  samples: 8,
  setup: async () => {
    const inProcess = await call("ls");
    const fallback = await call("ls --color=never");
    if (inProcess >= fallback)
      throw new Error("the fallback did not spawn: no slower than in-process");
  },
  subject: async () => {
    await call("ls --color=never");
  },
  baseline: async () => {
    await call("/usr/bin/ls --color=never", warmBaseline);
  },
  teardown: async () => {
    await warmSubject.registry.close();
    await warmBaseline.registry.close();
  },
};
