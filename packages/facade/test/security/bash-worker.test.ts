import { afterAll, describe, it } from "vitest";
import { BASH_WORKER_ATTACKS } from "./attacks/bash-worker.js";
import { rowsFor } from "./helpers/attack.js";
import { type Pending, recheckLater, sendAttack } from "./helpers/judge.js";

// Attack catalogue entries bearing on the bash worker itself against every shell engine (Linux: the engines run
// under the launcher's Landlock). See README.md for what does not apply, and why.
const pending: Pending[] = [];
afterAll(() => recheckLater(pending));

describe.skipIf(process.platform !== "linux")(
  "cross-engine security: the bash worker (Linux)",
  () => {
    describe.each(["bash"] as const)("%s engine", (engine) => {
      it.fails.each(rowsFor(BASH_WORKER_ATTACKS, engine, true))(
        "%s (known failure)",
        async (_title, attack) => {
          await sendAttack(engine, attack);
        },
      );
      it.each(rowsFor(BASH_WORKER_ATTACKS, engine))("%s", async (_title, attack) => {
        await sendAttack(engine, attack, pending);
      });
    });
  },
);
