import { afterAll, describe, it } from "vitest";
import { LIFETIME_ATTACKS } from "./attacks/lifetime.js";
import { rowsFor } from "./helpers/attack.js";
import { ENGINES } from "./helpers/engines.js";
import { type Pending, recheckLater, sendAttack } from "./helpers/judge.js";

// Attack catalogue §7–§8 (denial of service, process lifetime, persistence) against every shell engine (Linux: the engines run
// under the launcher's Landlock). See README.md for what does not apply, and why.
const pending: Pending[] = [];
afterAll(() => recheckLater(pending));

describe.skipIf(process.platform !== "linux")("cross-engine security: lifetime (Linux)", () => {
  describe.each(ENGINES)("%s engine", (engine) => {
    it.fails.each(rowsFor(LIFETIME_ATTACKS, engine, true))(
      "%s (known failure)",
      async (_title, attack) => {
        await sendAttack(engine, attack);
      },
    );
    it.each(rowsFor(LIFETIME_ATTACKS, engine))("%s", async (_title, attack) => {
      await sendAttack(engine, attack, pending);
    });
  });
});
