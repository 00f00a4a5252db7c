import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { runThroughFunnel } from "./helpers/run.js";

describe("stages joined by OS pipes", () => {
  it("pipes stage stdout into the next stage's stdin", async () => {
    const result = await runThroughFunnel([
      ["printf", "b\\na\\nc\\n"],
      ["sort"],
      ["head", "-n", "2"],
    ]);
    expect(result.stdout.toString()).toBe("a\nb\n");
    expect(result.exitCode).toBe(0);
  });

  it("moves 64 MiB between stages without capturing it (only the last stage is captured)", async () => {
    const result = await runThroughFunnel([
      ["head", "-c", "64M", "/dev/zero"],
      ["wc", "-c"],
    ]);
    expect(result.stdout.toString().trim()).toBe(String(64 << 20));
    expect(result.stdoutTruncated).toBe(false);
  });

  it("concatenates stderr in stage order and reports the last stage's status", async () => {
    const result = await runThroughFunnel([
      ["sh", "-c", "echo first >&2; echo data"],
      ["sh", "-c", "cat >/dev/null; echo second >&2; exit 3"],
    ]);
    expect(result.stderr.toString()).toBe("first\nsecond\n");
    expect(result.exitCode).toBe(3);
  });
});

describe("per-call private temp directory", () => {
  it("is the child's TMPDIR, mode 0700, disclosed, and removed after the call", async () => {
    const { createSandbox } = await import("../../src/funnel/sandbox.js");
    const { contextFor } = await import("./helpers/funnel-context.js");
    const { FS_AND_EXEC_COVERAGE } = await import("@agent-bridle/core");
    const sandbox = createSandbox({ home: "/nonexistent-home", tmpdir: "/tmp" });
    const outcome = await sandbox.run(
      contextFor(),
      {
        cwd: "/",
        timeoutMs: 5000,
        maxOutputBytes: 4096,
        privateTmp: true,
        stages: [["sh", "-c", 'printf "%s %s" "$TMPDIR" "$(stat -c %a "$TMPDIR")"']],
      },
      { coverage: FS_AND_EXEC_COVERAGE },
    );
    if (outcome.kind !== "ran") throw new Error(outcome.kind);
    const [path, mode] = outcome.result.stdout.toString().split(" ");
    expect(path).toBe(outcome.privateTmpDir);
    expect(path?.startsWith("/tmp/bridle-call-")).toBe(true);
    expect(mode).toBe("700");
    expect(existsSync(path as string)).toBe(false);
  });
});
