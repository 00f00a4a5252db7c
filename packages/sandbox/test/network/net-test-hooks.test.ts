import { describe, expect, it } from "vitest";
import { createLandlockBackend } from "../../src/backend/landlock-backend.js";
import { bindNetTestHooks, netTestHooksOf } from "../../src/network/net-test-hooks.js";

// The facade-level test resolver is bound to one backend object in memory: nothing that
// configuration can spell (a file, a variable, a request) names it.
describe("bindNetTestHooks", () => {
  it("binds the hooks to that backend object only, as a frozen copy", () => {
    const hosts: Record<string, string> = { "allowed.test": "127.0.0.1" };
    const bound = bindNetTestHooks(createLandlockBackend(), { hosts });
    hosts["other.test"] = "127.0.0.1";
    expect(netTestHooksOf(bound)).toEqual({
      hosts: { "allowed.test": "127.0.0.1" },
      publicAddresses: [],
    });
    expect(Object.isFrozen(netTestHooksOf(bound)?.hosts)).toBe(true);
    // Another backend, built the same way, resolves as production does.
    expect(netTestHooksOf(createLandlockBackend())).toBeUndefined();
    expect(netTestHooksOf(undefined)).toBeUndefined();
  });
});
