import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { killDepth, listDescendants } from "../../src/funnel/process-tree.js";

// The kill walk: a launcher's child is PID 1 of its own namespace, so one generation is
// enough there (its death ends the rest); elsewhere the walk goes all the way down.
describe.skipIf(process.platform !== "linux")("listDescendants", () => {
  it("stops after the given number of generations", async () => {
    const child = spawn("/bin/sh", ["-c", "/bin/sh -c '/bin/sleep 30; :' & wait"], {
      detached: true,
      stdio: "ignore",
    });
    const pid = child.pid as number;
    try {
      let all: number[] = [];
      for (let i = 0; i < 100 && all.length < 2; i++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        all = listDescendants(pid);
      }
      expect(all).toHaveLength(2);
      const [inner] = listDescendants(pid, 1);
      expect(listDescendants(pid, 1)).toEqual([inner]);
      expect(listDescendants(inner as number)).toEqual(all.filter((p) => p !== inner));
    } finally {
      process.kill(-pid, "SIGKILL");
    }
  });

  it("walks one generation only below a PID-namespace wrapper", () => {
    expect(killDepth({ pidNamespace: true })).toBe(1);
    expect(killDepth({ pidNamespace: false })).toBe(Number.POSITIVE_INFINITY);
    expect(killDepth(undefined)).toBe(Number.POSITIVE_INFINITY);
  });
});
