import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { caveats, only, RunEnvelopeSchema } from "@agent-bridle/core";
import { useTempDirs } from "@agent-bridle-tools/test-kit";
import { describe, expect, it } from "vitest";
import { useBrushRegistries } from "./brush-registries.js";

// Issue 14, point 4, end to end through the worker: one answer for an outside path
// whether it exists or not, and git's indirection files refused to the interpreter's
// own writes.

const tempDir = useTempDirs("brush-sight-", "each");
const brush = useBrushRegistries();

const PROBES =
  "cat T; echo $?; test -e T; echo $?; [ -d T ]; echo $?; cd T; echo $?; echo T/*; source T; echo $?; T; echo $?";

describe("BrushShellTool: what the interpreter's own gate tells and writes", () => {
  it("answers an existing and a missing outside path alike", async () => {
    const base = tempDir();
    const grant = join(base, "grant");
    const outside = join(base, "outside");
    mkdirSync(grant);
    mkdirSync(join(outside, "folder"), { recursive: true });
    writeFileSync(join(outside, "present"), "echo CANARY-OUT\n", { mode: 0o755 });
    symlinkSync(join(outside, "nowhere"), join(outside, "dangling"));
    const { registry } = brush({ kernel: true });
    const seen = new Set<string>();
    for (const name of ["present", "folder", "dangling", "missing"]) {
      const target = join(outside, name);
      const envelope = RunEnvelopeSchema.parse(
        await registry.dispatch(
          "shell",
          { cmd: PROBES.replaceAll("T", target), cwd: grant },
          registry.mintGrant(
            caveats({ fs_read: only([grant]), fs_write: only([grant]), exec: "all", net: "all" }),
          ),
        ),
      );
      const { stdout, stderr, exit_code, denials } = envelope;
      const facts = JSON.stringify({ stdout, stderr, exit_code, denials });
      expect(facts).not.toContain("CANARY");
      seen.add(facts.replaceAll(target, "TARGET"));
    }
    expect(seen.size).toBe(1);
  });

  it("refuses writing .git/commondir, .git/config and a .git file; writes a file beside them", async () => {
    const grant = tempDir();
    mkdirSync(join(grant, "repo/.git"), { recursive: true });
    mkdirSync(join(grant, "feature"));
    const files = {
      "repo/.git/commondir": "..\n",
      "repo/.git/config": "[core]\n",
      "feature/.git": "gitdir: ../repo/.git/worktrees/feature\n",
    };
    for (const [relative, content] of Object.entries(files)) {
      writeFileSync(join(grant, relative), content);
    }
    const { registry } = brush({ kernel: true });
    const cmd = [
      "echo /tmp/evil > repo/.git/commondir; echo $?",
      "echo '[core] fsmonitor = evil' >> repo/.git/config; echo $?",
      "echo 'gitdir: /tmp/evil' > feature/.git; echo $?",
      "echo ok > repo/notes.txt; echo $?",
    ].join("; ");
    const envelope = RunEnvelopeSchema.parse(
      await registry.dispatch(
        "shell",
        { cmd, cwd: grant },
        registry.mintGrant(
          caveats({ fs_read: only([grant]), fs_write: only([grant]), exec: "all", net: "all" }),
        ),
      ),
    );
    expect(envelope.stdout).toBe("1\n1\n1\n0\n");
    expect(envelope.denials?.map((denial) => denial.code)).toEqual([
      "FS_BLOCKED",
      "FS_BLOCKED",
      "FS_BLOCKED",
    ]);
    for (const [relative, content] of Object.entries(files)) {
      expect(readFileSync(join(grant, relative), "utf8"), relative).toBe(content);
    }
    expect(readFileSync(join(grant, "repo/notes.txt"), "utf8")).toBe("ok\n");
  });
});
