import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { useTempDirs } from "@agent-bridle-tools/test-kit";
import { describe, expect, it } from "vitest";
import { brush, sleep } from "./helpers.js";

const tempDir = useTempDirs("brush-ref-timeout-");

describe("the bash engine's timeout and tree kill (reference case 86)", () => {
  it("86: timeout 1 s: sleep 3 returns before the sleep would end, timed_out, exit 124", async () => {
    const { run } = brush();
    const started = performance.now();
    const envelope = await run({ cmd: "sleep 3", timeout_secs: 1, cwd: tempDir() });
    expect(performance.now() - started).toBeLessThan(3000);
    expect(envelope).toMatchObject({ timed_out: true, exit_code: 124 });
    expect(envelope.stderr).toContain("command timed out after 1s");
  });

  it("86: timeout 150 ms: (sleep 1; touch M) & wait — M never appears", async () => {
    const dir = tempDir();
    const marker = join(dir, "M");
    const { run } = brush();
    const envelope = await run({
      cmd: `(sleep 1; touch ${marker}) & wait`,
      timeout_secs: 0.15,
      cwd: dir,
    });
    expect(envelope).toMatchObject({ timed_out: true, exit_code: 124 });
    await sleep(1500);
    expect(existsSync(marker)).toBe(false);
    expect(readdirSync(dir)).toEqual([]);
  });

  it("86: (sleep 5; touch M) & echo done returns promptly, not timed out, and M never appears", async () => {
    const dir = tempDir();
    const marker = join(dir, "M");
    const { run } = brush();
    const started = performance.now();
    const envelope = await run({
      cmd: `(sleep 5; touch ${marker}) & echo done`,
      timeout_secs: 30,
      cwd: dir,
    });
    // Promptly: well before the background sleep would end.
    expect(performance.now() - started).toBeLessThan(4000);
    expect(envelope).toMatchObject({ timed_out: false, exit_code: 0 });
    expect(envelope.stdout).toContain("done");
    await sleep(Math.max(0, 5500 - (performance.now() - started)));
    expect(existsSync(marker)).toBe(false);
    expect(readdirSync(dir)).toEqual([]);
  });
});
