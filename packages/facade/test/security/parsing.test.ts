import { afterAll, describe, it } from "vitest";
import { PARSING_ATTACKS } from "./attacks/parsing.js";
import { rowsFor } from "./helpers/attack.js";
import { ENGINES } from "./helpers/engines.js";
import { type Pending, recheckLater, sendAttack } from "./helpers/judge.js";

// Attack catalogue §3 (safe-subset parsing) against every shell engine (Linux: the engines run
// under the launcher's Landlock). See README.md for what does not apply, and why.
const pending: Pending[] = [];
afterAll(() => recheckLater(pending));

describe.skipIf(process.platform !== "linux")("cross-engine security: parsing (Linux)", () => {
  describe.each(ENGINES)("%s engine", (engine) => {
    it.fails.each(rowsFor(PARSING_ATTACKS, engine, true))(
      "%s (known failure)",
      async (_title, attack) => {
        await sendAttack(engine, attack);
      },
    );
    it.each(rowsFor(PARSING_ATTACKS, engine))("%s", async (_title, attack) => {
      await sendAttack(engine, attack, pending);
    });
  });
});
