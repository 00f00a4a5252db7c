import { ConfigurationError, caveats, RunEnvelopeSchema } from "@agent-bridle/core";
import { NONE_BACKEND } from "@agent-bridle/sandbox";
import { registryWith } from "@agent-bridle-tools/test-kit";
import { describe, expect, it } from "vitest";
import { createBrushShellTool } from "../../src/tool/brush-shell-tool.js";
import { WarmDemand } from "../../src/tool/warm-demand.js";
import { workerChildren } from "./worker-children.js";

// Issue 20 point 3: the warm pool is sized to the load — as many ready workers as calls
// were recently in flight at once, within the host's `maxWarmWorkers` — each still
// serving exactly one call, and idle ones gone.

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The worker children once the finished calls' workers are gone (a call answers as soon
 * as its worker is killed, before the kernel has torn it down): polled for up to 3 s
 * until at most `ready` are left. Ready workers wait 30 s, so an extra one stays.
 */
async function readyWorkers(ready: number): Promise<number[]> {
  for (let tries = 0; tries < 120 && workerChildren().length > ready; tries += 1) await sleep(25);
  return workerChildren();
}
const ALL = { fs_read: "all", fs_write: "all", exec: "all", net: "all" } as const;
const ppidScript = "/bin/sh -c 'echo $PPID'";

function brush(maxWarmWorkers: number, idleMs = 30_000) {
  const tool = createBrushShellTool({
    home: "/nonexistent-home",
    tmpdir: "/tmp",
    backend: NONE_BACKEND,
    maxWarmWorkers,
    idleMs,
  });
  const { registry } = registryWith(tool);
  return { tool, registry, grant: registry.mintGrant(caveats(ALL)) };
}

/** `n` calls at once; the worker pid each ran in. */
async function burst(b: ReturnType<typeof brush>, n: number): Promise<number[]> {
  const envelopes = await Promise.all(
    Array.from({ length: n }, () =>
      b.registry.dispatch("shell", { cmd: `sleep 0.3; ${ppidScript}`, cwd: "/" }, b.grant),
    ),
  );
  return envelopes.map((envelope) => Number(RunEnvelopeSchema.parse(envelope).stdout));
}

describe.skipIf(process.platform !== "linux")("the warm pool, sized to the load", () => {
  it("after 4 calls at once, 4 workers are ready; the next 4 calls at once take one each, none twice", async () => {
    const b = brush(4);
    try {
      const first = await burst(b, 4);
      expect(new Set(first).size).toBe(4);
      await b.tool.warmReady();
      const ready = await readyWorkers(4);
      expect(ready).toHaveLength(4);
      const second = await burst(b, 4);
      expect([...second].sort()).toEqual([...ready].sort()); // each pre-started worker, once
      // Served once, then gone (killed when its call ended; torn down shortly after).
      const served = () => workerChildren().filter((pid) => ready.includes(pid));
      for (let tries = 0; tries < 120 && served().length > 0; tries += 1) await sleep(25);
      expect(served()).toEqual([]);
    } finally {
      await b.tool.close?.();
    }
    expect(workerChildren()).toEqual([]);
  });

  it("never more ready than the host allows: 6 calls at once under maxWarmWorkers 2 leave 2", async () => {
    const b = brush(2);
    try {
      await burst(b, 6);
      await b.tool.warmReady();
      expect(await readyWorkers(2)).toHaveLength(2);
    } finally {
      await b.tool.close?.();
    }
    expect(workerChildren()).toEqual([]);
  });

  it("one call at a time keeps one ready worker (the burst's size is not kept without a burst)", async () => {
    const b = brush(4);
    try {
      for (let i = 0; i < 3; i += 1) {
        await b.registry.dispatch("shell", { cmd: "true", cwd: "/" }, b.grant);
        await b.tool.warmReady();
        expect(await readyWorkers(1)).toHaveLength(1);
      }
    } finally {
      await b.tool.close?.();
    }
  });

  it("idle ready workers exit on their own after idleMs", async () => {
    const b = brush(3, 400);
    try {
      await burst(b, 3);
      await b.tool.warmReady();
      expect(await readyWorkers(3)).toHaveLength(3);
      for (let tries = 0; tries < 200 && workerChildren().length > 0; tries += 1) await sleep(25);
      expect(workerChildren()).toEqual([]);
    } finally {
      await b.tool.close?.();
    }
  });

  it("refuses a bound that is not an integer from 1 to 256", () => {
    for (const maxWarmWorkers of [0, -1, 1.5, 257]) {
      expect(() =>
        createBrushShellTool({ home: "/x", tmpdir: "/tmp", backend: NONE_BACKEND, maxWarmWorkers }),
      ).toThrow(ConfigurationError);
    }
  });
});

describe("warm demand", () => {
  it("is the window's peak concurrency, from 1 to the bound, and falls once the window passes", () => {
    let now = 0;
    const demand = new WarmDemand(1000, () => now);
    expect(demand.target(8)).toBe(1);
    const ends = Array.from({ length: 5 }, () => demand.began());
    expect(demand.active).toBe(5);
    expect(demand.target(8)).toBe(5);
    expect(demand.target(3)).toBe(3);
    for (const end of ends) end();
    ends[0]?.(); // once only
    expect(demand.active).toBe(0);
    now = 500;
    expect(demand.target(8)).toBe(5);
    now = 1501;
    expect(demand.target(8)).toBe(1);
  });

  it("back-to-back calls that waited for their worker ask for one more, up to the cores and the bound", () => {
    let now = 0;
    const demand = new WarmDemand(1000, () => now, 2);
    demand.began()();
    expect(demand.target(8)).toBe(1);
    demand.starved();
    expect(demand.target(8)).toBe(2);
    demand.starved();
    demand.starved();
    expect(demand.target(8)).toBe(2); // two cores start two workers side by side
    expect(demand.target(1)).toBe(1); // never over the host's bound
    now = 1001;
    expect(demand.target(8)).toBe(1);
  });
});
