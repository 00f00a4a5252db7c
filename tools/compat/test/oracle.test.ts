import { spawnSync } from "node:child_process";
import { tmpdir } from "node:os";
import { describe, expect, it } from "vitest";
import { BASH, runProcess } from "../src/oracle.js";

describe("runProcess (the bash oracle's runner)", () => {
  it("times out cleanly when an escapee holds the pipes after its group is gone", async () => {
    // bash exits at once; `setsid sleep` leaves the process group and keeps stdout open.
    const marker = "7.3141";
    const started = performance.now();
    try {
      const result = await runProcess(BASH, ["--norc", "--noprofile"], {
        cwd: tmpdir(),
        env: { PATH: "/usr/bin:/bin" },
        stdin: `setsid sleep ${marker} & exit 0\n`,
        timeoutMs: 300,
      });
      expect(result.exitCode).toBe(124);
      expect(performance.now() - started).toBeLessThan(5000);
    } finally {
      spawnSync("pkill", ["-f", `sleep ${marker}`], { stdio: "ignore" });
    }
  });

  it("reports the exit code of a process that ends in time", async () => {
    const result = await runProcess(BASH, ["--norc", "--noprofile"], {
      cwd: tmpdir(),
      env: { PATH: "/usr/bin:/bin" },
      stdin: "echo out; exit 3\n",
    });
    expect(result).toMatchObject({ exitCode: 3, stdout: "out\n" });
  });
});
