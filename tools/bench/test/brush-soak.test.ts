import { describe, expect, it } from "vitest";
import { brushSoak } from "../src/soak/brush-soak.js";

// The soak's liveness variant (issue 20; the 1,000-call run is the `brush-soak`
// benchmark): 60 calls in a row through the launcher all answer, and once the registry is
// closed no worker or launcher process, no per-call cgroup and no private temp directory
// is left. Memory figures are the benchmark's (meaningless over 60 calls on a busy host).
describe.skipIf(process.platform !== "linux")("brush soak, short (Linux: the launcher)", () => {
  it("60 calls in a row answer, and nothing is left after close()", async () => {
    const soak = await brushSoak(60);
    expect(soak.wrong).toEqual([]);
    expect(soak.left).toEqual({ processes: [], cgroups: [], tempDirs: [] });
  }, 120_000);
});
