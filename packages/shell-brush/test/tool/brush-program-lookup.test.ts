import { existsSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { caveats, only, RunEnvelopeSchema } from "@agent-bridle/core";
import { useTempDirs } from "@agent-bridle-tools/test-kit";
import { describe, expect, it } from "vitest";
import { useBrushRegistries } from "./brush-registries.js";

// Issue 15, point 6 (the venv item of its workflow list): a command spelled by an
// absolute path inside fs_read whose link leads to a public program is found, and
// core's exec identity decides; a link leading anywhere else keeps the read denial,
// whatever is there.

const tempDir = useTempDirs("brush-lookup-", "each");
const brush = useBrushRegistries();

async function run(cmd: string, root: string, exec: readonly string[]) {
  const { registry } = brush({ kernel: true });
  const grant = caveats({
    fs_read: only([root]),
    fs_write: only([root]),
    exec: only([...exec]),
    net: "all",
  });
  return RunEnvelopeSchema.parse(
    await registry.dispatch("shell", { cmd, cwd: root }, registry.mintGrant(grant)),
  );
}

describe("a command path whose real location is a public program", () => {
  it("runs a venv's interpreter by its absolute path", async () => {
    const root = tempDir();
    const envelope = await run(
      "python3 -m venv --without-pip v && $PWD/v/bin/python3 -c 'import sys; print(42, sys.prefix != sys.base_prefix)'",
      root,
      ["python3"],
    );
    expect(envelope.stderr).toBe("");
    expect(envelope.stdout).toBe("42 True\n");
    expect(envelope.exit_code).toBe(0);
    expect(envelope.denials ?? []).toEqual([]);
  });

  it("is found, then refused by exec identity when it is another program", async () => {
    const root = tempDir();
    symlinkSync("/usr/bin/id", join(root, "python3"));
    // `id` granted too, so the private view holds it: the basename rule refuses the link.
    const envelope = await run("$PWD/python3 -u; echo $?", root, ["python3", "id"]);
    expect(envelope.stdout).toBe("126\n");
    expect(envelope.stderr).toContain("execution denied");
    expect(envelope.denials?.map((denial) => denial.code)).toEqual(["EXEC_NOT_GRANTED"]);
  });

  it("keeps one read denial for a link out of the grant, whether its target exists or not", async () => {
    const base = tempDir();
    const root = join(base, "grant");
    const outside = join(base, "outside");
    mkdirSync(root);
    mkdirSync(outside);
    const marker = join(outside, "ran");
    writeFileSync(join(outside, "tool"), `#!/bin/sh\ntouch ${marker}\n`, { mode: 0o755 });
    symlinkSync(join(outside, "tool"), join(root, "present"));
    symlinkSync(join(outside, "missing"), join(root, "absent"));
    const answers = new Set<string>();
    for (const name of ["present", "absent"]) {
      const envelope = await run(`$PWD/${name}; echo $?`, root, [name, "tool"]);
      const { stdout, stderr, denials } = envelope;
      answers.add(JSON.stringify({ stdout, stderr, denials }).replaceAll(name, "NAME"));
      expect(stdout).toBe("126\n");
      expect(denials?.map((denial) => denial.code)).toEqual(["FS_SYMLINK_ESCAPE"]);
    }
    expect(answers.size).toBe(1);
    expect(existsSync(marker)).toBe(false);
  });
});
