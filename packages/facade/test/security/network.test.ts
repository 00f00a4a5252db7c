import { afterAll, describe, it } from "vitest";
import { NETWORK_ATTACKS, stopNetworkServers } from "./attacks/network.js";
import { rowsFor } from "./helpers/attack.js";
import { ENGINES } from "./helpers/engines.js";
import { type Pending, recheckLater, sendAttack } from "./helpers/judge.js";

// Host allow-lists (issue 16) against every shell engine (Linux: the launcher's network
// namespace and the egress proxy; names mapped to loopback servers by a test resolver).
const pending: Pending[] = [];
afterAll(async () => {
  await stopNetworkServers();
  await recheckLater(pending);
});

describe.skipIf(process.platform !== "linux")("cross-engine security: network (Linux)", () => {
  describe.each(ENGINES)("%s engine", (engine) => {
    it.fails.each(rowsFor(NETWORK_ATTACKS, engine, true))(
      "%s (known failure)",
      async (_title, attack) => {
        await sendAttack(engine, attack);
      },
    );
    it.each(rowsFor(NETWORK_ATTACKS, engine))("%s", { timeout: 60_000 }, async (_title, attack) => {
      await sendAttack(engine, attack, pending);
    });
  });
});
