import { describe, expect, it } from "vitest";
import { hostAllowListSupport } from "../../src/network/host-allow-list-support.js";

// What `bridle doctor` says about host allow-lists, layer by layer (issue 16 point 4).
describe("whether host allow-lists can be enforced", () => {
  it("says enforced only with the launcher, Landlock ABI >= 4 and the proxy network", () => {
    expect(
      hostAllowListSupport("landlock", { available: true, landlockAbi: 7, netProxy: true }),
    ).toMatch(/^enforced \(kernel\)/);
  });
  it.each([
    ["none", { available: true }, /none backend/],
    ["landlock", { available: false }, /launcher is unavailable/],
    ["landlock", { available: true, landlockAbi: 3, netProxy: true }, /ABI 3 has no TCP rules/],
    ["landlock", { available: true, landlockAbi: 7, netProxy: false }, /network namespace/],
  ] as const)("%s %j: not enforceable, and why", (kind, probe, why) => {
    const said = hostAllowListSupport(kind, probe);
    expect(said).toMatch(/^not enforceable/);
    expect(said).toMatch(why);
  });
});
