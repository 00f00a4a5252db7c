import { afterAll, describe, it } from "vitest";
import { PATH_ATTACKS } from "./attacks/paths.js";
import { rowsFor } from "./helpers/attack.js";
import { ENGINES } from "./helpers/engines.js";
import { type Pending, recheckLater, sendAttack } from "./helpers/judge.js";

// Attack catalogue §1–§2 in shell form against every shell engine (Linux: the engines run
// under the launcher's Landlock). See README.md for what does not apply, and why.
const pending: Pending[] = [];
afterAll(() => recheckLater(pending));

describe.skipIf(process.platform !== "linux")("cross-engine security: paths (Linux)", () => {
  describe.each(ENGINES)("%s engine", (engine) => {
    it.fails.each(rowsFor(PATH_ATTACKS, engine, true))(
      "%s (known failure)",
      async (_title, attack) => {
        await sendAttack(engine, attack);
      },
    );
    it.each(rowsFor(PATH_ATTACKS, engine))("%s", async (_title, attack) => {
      await sendAttack(engine, attack, pending);
    });
  });
});
