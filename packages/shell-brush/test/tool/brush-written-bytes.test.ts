import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { caveats, only, RunEnvelopeSchema } from "@agent-bridle/core";
import type { ResourceLimits } from "@agent-bridle/sandbox";
import { useTempDirs } from "@agent-bridle-tools/test-kit";
import { describe, expect, it } from "vitest";
import { useBrushRegistries } from "./brush-registries.js";

// The bytes the interpreter writes to files itself (redirections), all files of a call
// together, are bounded by `interpreterWrittenBytes` and the limit is reported
// (`LIMIT_EXCEEDED written_bytes`, ADR 0021). No kernel limit counts these writes: each
// file stays under the file-size limit, the disk fills all the same. Linux only (the
// grant restricts fs_write, which only the launcher enforces).
const linux = process.platform === "linux";
const tempDir = useTempDirs("brush-written-", "each");
const brush = useBrushRegistries();
const MiB = 1 << 20;

/** `files` files of 64 KiB each, written by `printf` redirections; the failures named. */
const fill = (files: number, target = "f$i") =>
  `x=$(head -c 65536 /dev/zero | tr '\\0' x); for i in $(seq 1 ${files}); do printf %s "$x" > ${target} || echo "failed $i"; done; echo after`;

async function run(cmd: string, resourceLimits?: ResourceLimits) {
  const dir = tempDir();
  const { registry } = brush({ kernel: true, ...(resourceLimits ? { resourceLimits } : {}) });
  const grant = registry.mintGrant(
    caveats({ fs_read: "all", fs_write: only([dir]), exec: "all", net: only([]) }),
  );
  const envelope = RunEnvelopeSchema.parse(
    await registry.dispatch("shell", { cmd, cwd: dir }, grant),
  );
  expect(envelope.sandbox_kind).toBe("landlock");
  const written = readdirSync(dir).reduce((sum, name) => sum + statSync(join(dir, name)).size, 0);
  return {
    envelope,
    dir,
    written,
    limits: envelope.denials?.map((denial) => [denial.code, denial.target]),
  };
}

describe.skipIf(!linux)("bash engine: the bytes its interpreter writes itself (Linux)", () => {
  it("24 files of 64 KiB under a 1 MiB limit: 16 are written, the rest fail with EDQUOT, the script goes on; LIMIT_EXCEEDED written_bytes", async () => {
    const { envelope, written, limits, dir } = await run(fill(24), {
      interpreterWrittenBytes: MiB,
    });
    expect(written).toBe(MiB);
    expect(statSync(join(dir, "f16")).size).toBe(65536);
    expect(statSync(join(dir, "f17")).size).toBe(0);
    const failed = Array.from({ length: 8 }, (_, i) => `failed ${17 + i}\n`).join("");
    expect(envelope.stdout).toBe(`${failed}after\n`);
    expect(envelope.stderr).toContain("printf: write error: Disk quota exceeded");
    expect(limits).toEqual([["LIMIT_EXCEEDED", "written_bytes"]]);
    expect(envelope.denials?.[0]?.reason).toContain("1 MiB in all");
  });

  it("a write that crosses the limit writes what still fits", async () => {
    const { written, limits } = await run(fill(2), { interpreterWrittenBytes: 100_000 });
    expect(written).toBe(100_000);
    expect(limits).toEqual([["LIMIT_EXCEEDED", "written_bytes"]]);
  });

  it("control: inside the limit every file is written and nothing is reported", async () => {
    const { envelope, written } = await run(fill(8), { interpreterWrittenBytes: MiB });
    expect(written).toBe(8 * 65536);
    expect(envelope).toMatchObject({ exit_code: 0, stdout: "after\n", stderr: "" });
    expect(envelope.denials).toBeUndefined();
  });

  it("writes to /dev/null and a program's own files are not the interpreter's: not counted", async () => {
    const program = `python3 -c 'open("p", "wb").write(bytes(${2 * MiB}))'`;
    const { envelope, written } = await run(`${fill(32, "/dev/null")} && ${program} && echo ok`, {
      interpreterWrittenBytes: MiB,
    });
    expect(envelope).toMatchObject({ exit_code: 0, stdout: "after\nok\n", stderr: "" });
    expect(envelope.denials).toBeUndefined();
    expect(written).toBe(2 * MiB);
  });

  it("the default (1 GiB) leaves ordinary scripts alone", async () => {
    const { envelope, written } = await run(fill(40));
    expect(envelope).toMatchObject({ exit_code: 0, stdout: "after\n" });
    expect(envelope.denials).toBeUndefined();
    expect(written).toBe(40 * 65536);
  });
});
