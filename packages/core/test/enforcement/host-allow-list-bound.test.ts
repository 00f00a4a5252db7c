import { describe, expect, it } from "vitest";
import { caveats, top } from "../../src/caveats/caveats.js";
import { only } from "../../src/caveats/scope.js";
import { backendBound } from "../../src/enforcement/backend-bound.js";
import { effectiveSandboxKind } from "../../src/enforcement/effective-sandbox-kind.js";

// A host allow-list is kernel only where its proxy network is up (network.md, ADR 0017).
describe("the strength of a host allow-list", () => {
  const hosts = caveats({
    fs_read: "all",
    fs_write: "all",
    exec: "all",
    net: only(["registry.npmjs.org"]),
  });

  it("is kernel under Landlock with the proxy network, ABI >= 4", () => {
    expect(backendBound("net", hosts, { kind: "landlock", landlockAbi: 7, netProxy: true })).toBe(
      "kernel",
    );
  });

  it("has no kernel bound without it, or below ABI 4 (advisory: the floor refuses)", () => {
    expect(backendBound("net", hosts, { kind: "landlock", landlockAbi: 7 })).toBeUndefined();
    expect(
      backendBound("net", hosts, { kind: "landlock", landlockAbi: 3, netProxy: true }),
    ).toBeUndefined();
  });

  it("net only[] and net all keep their strength", () => {
    const none = caveats({ fs_read: "all", fs_write: "all", exec: "all", net: only([]) });
    expect(backendBound("net", none, { kind: "landlock", landlockAbi: 4 })).toBe("kernel");
    expect(
      backendBound("net", top(), { kind: "landlock", landlockAbi: 7, netProxy: true }),
    ).toBeUndefined();
  });

  it("engages Landlock on its own only where the proxy network can be set up", () => {
    expect(effectiveSandboxKind("landlock", hosts, { landlockAbi: 7, netProxy: true })).toBe(
      "landlock",
    );
    expect(effectiveSandboxKind("landlock", hosts, { landlockAbi: 7 })).toBe("none");
  });
});
