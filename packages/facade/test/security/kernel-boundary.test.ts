import { afterAll, describe, expect, it } from "vitest";
import { KERNEL_BOUNDARY_ATTACKS } from "./attacks/kernel-boundary.js";
import { rowsFor } from "./helpers/attack.js";
import { ENGINES, type EngineName } from "./helpers/engines.js";
import { type Pending, recheckLater, sendAttack } from "./helpers/judge.js";
import {
  isRoot,
  killNobodyRuns,
  runAsNobody,
  type UnprivilegedRun,
  unprivilegedUnavailable,
} from "./helpers/unprivileged.js";

// Issue 14's classes (kernel-boundary.md §1) against every shell engine, with a granted
// python3 as the attacker: as the user the test runs as (root in CI), and — when that is
// root — again as nobody, one child process per engine (helpers/unprivileged.ts), started
// one after the other by the first nobody row; each nobody row asserts on its engine's
// report. See README.md ("Kernel boundary").
const pending: Pending[] = [];
afterAll(() => recheckLater(pending));
afterAll(killNobodyRuns);

const TABLE = ["kernel-boundary", "KERNEL_BOUNDARY_ATTACKS"] as const;
const CHILD_TIMEOUT_MS = 150_000;
const user = isRoot ? "root" : "unprivileged";
const skipNobody = unprivilegedUnavailable();

/** One child per engine, one after the other, started by the first nobody row. */
let runs: Map<EngineName, Promise<UnprivilegedRun>> | undefined;
function startNobodyRuns(): Map<EngineName, Promise<UnprivilegedRun>> {
  const started = new Map<EngineName, Promise<UnprivilegedRun>>();
  let previous: Promise<unknown> = Promise.resolve();
  for (const engine of ENGINES) {
    const run = previous.then(() => runAsNobody(...TABLE, engine, CHILD_TIMEOUT_MS));
    run.catch(() => {}); // asserted by the rows; never an unhandled rejection
    started.set(engine, run);
    previous = run.catch(() => undefined);
  }
  return started;
}

async function nobodyRow(engine: EngineName, title: string) {
  runs ??= startNobodyRuns();
  const run = await (runs.get(engine) as Promise<UnprivilegedRun>);
  const row = run.rows.get(title);
  expect(row, `${title}: not in the nobody run's report`).toBeDefined();
  if (!row?.passed) throw new Error(`as nobody: ${row?.error ?? "no report"}`);
}

describe.skipIf(process.platform !== "linux")(
  "cross-engine security: the kernel boundary (Linux)",
  () => {
    describe.each(ENGINES)(`%s engine as ${user}`, (engine) => {
      it.fails.each(rowsFor(KERNEL_BOUNDARY_ATTACKS, engine, true))(
        "%s (known failure)",
        async (_title, attack) => {
          await sendAttack(engine, attack);
        },
      );
      it.each(rowsFor(KERNEL_BOUNDARY_ATTACKS, engine))("%s", async (_title, attack) => {
        await sendAttack(engine, attack, pending);
      });
    });

    describe.skipIf(skipNobody !== undefined).each(ENGINES)("%s engine as nobody", (engine) => {
      it.fails.each(rowsFor(KERNEL_BOUNDARY_ATTACKS, engine, true))(
        "%s (known failure)",
        (title) => nobodyRow(engine, title),
        CHILD_TIMEOUT_MS * ENGINES.length,
      );
      it.each(rowsFor(KERNEL_BOUNDARY_ATTACKS, engine))(
        "%s",
        (title) => nobodyRow(engine, title),
        CHILD_TIMEOUT_MS * ENGINES.length,
      );
    });
  },
);
