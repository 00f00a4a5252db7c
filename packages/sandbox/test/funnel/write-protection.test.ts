import { lstatSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { NO_COVERAGE, only } from "@agent-bridle/core";
import { describe, expect, it } from "vitest";
import { createLandlockBackend } from "../../src/backend/landlock-backend.js";
import { createSandbox, type SandboxRunRequest } from "../../src/funnel/sandbox.js";
import { contextFor, useTempDir } from "./helpers/funnel-context.js";

// Existing write-blocked configuration inside a write root is bound read-only for every
// program of the call (kernel-boundary.md §2, "secrets"; issue 14, class 9), and what one
// call creates is protected from the next.
const backend = createLandlockBackend();
const tempDir = useTempDir();
const sandbox = createSandbox({ home: "/nonexistent-home", tmpdir: "/tmp", backend });

function request(cwd: string, script: string): SandboxRunRequest {
  const stages = [["sh", "-c", script]];
  return { cwd, timeoutMs: 10_000, maxOutputBytes: 65536, stages };
}

function repository(root: string) {
  mkdirSync(join(root, ".git", "hooks"), { recursive: true });
  writeFileSync(join(root, ".git", "config"), "[core]\n\tbare = false\n");
  writeFileSync(join(root, ".git", "commondir"), "..\n");
}

const snapshot = (path: string) => {
  const st = lstatSync(path);
  return { content: readFileSync(path, "utf8"), mode: st.mode, mtime: st.mtimeMs };
};

describe.skipIf(process.platform !== "linux")(
  "write-blocked configuration under the launcher",
  () => {
    it("class 9: an existing .git/config, commondir and hooks stay unchanged; the repository is otherwise writable", async () => {
      const root = realpathSync(tempDir());
      repository(root);
      const before = [".git/config", ".git/commondir"].map((name) => snapshot(join(root, name)));
      const cx = contextFor({ fs_read: only([root]), fs_write: only([root]) });
      const attack = [
        "echo '[core] fsmonitor = touch PWNED' >> .git/config",
        "printf /tmp > .git/commondir",
        "chmod 777 .git/config",
        "mv .git/config .git/config.old",
        "printf '#!/bin/sh\\ntouch PWNED\\n' > .git/hooks/pre-commit",
        "echo fine > kept.txt",
      ].join("; ");
      const outcome = await sandbox.run(cx, request(root, attack), { coverage: NO_COVERAGE });
      expect(outcome).toMatchObject({
        kind: "ran",
        sandboxKind: "landlock",
        report: { fs_write: "kernel" },
      });
      const after = [".git/config", ".git/commondir"].map((name) => snapshot(join(root, name)));
      expect(after).toEqual(before);
      expect(() => lstatSync(join(root, ".git", "hooks", "pre-commit"))).toThrow();
      expect(() => lstatSync(join(root, ".git", "config.old"))).toThrow();
      // Positive control: the same call wrote an ordinary file in the same root.
      expect(readFileSync(join(root, "kept.txt"), "utf8")).toBe("fine\n");
    });

    it("class 9: a worktree's .git file (gitdir: indirection) cannot be re-aimed", async () => {
      const root = realpathSync(tempDir());
      mkdirSync(join(root, "wt"));
      writeFileSync(join(root, "wt", ".git"), "gitdir: ../main/.git/worktrees/wt\n");
      const before = snapshot(join(root, "wt", ".git"));
      const cx = contextFor({ fs_read: only([root]), fs_write: only([root]) });
      const attack =
        "echo 'gitdir: /tmp/evil' > wt/.git; mv wt/.git wt/git-old; echo fine > wt/kept";
      const outcome = await sandbox.run(cx, request(root, attack), { coverage: NO_COVERAGE });
      expect(outcome.kind).toBe("ran");
      expect(snapshot(join(root, "wt", ".git"))).toEqual(before);
      expect(readFileSync(join(root, "wt", "kept"), "utf8")).toBe("fine\n");
    });

    it("class 9: configuration one call creates is bound read-only for the next call", async () => {
      const root = realpathSync(tempDir());
      const cx = contextFor({ fs_read: only([root]), fs_write: only([root]) });
      const make = "mkdir -p sub/.git && echo '[core]' > sub/.git/config && echo made";
      const made = await sandbox.run(cx, request(root, make), { coverage: NO_COVERAGE });
      expect(made.kind === "ran" && made.result.stdout.toString()).toBe("made\n");
      const before = snapshot(join(root, "sub", ".git", "config"));
      const change = "echo '[core] hooksPath = /tmp' >> sub/.git/config; echo other > other.txt";
      // The refresh after the first call runs in the background; the next call waits for it.
      const changed = await sandbox.run(cx, request(root, change), { coverage: NO_COVERAGE });
      expect(changed.kind).toBe("ran");
      expect(snapshot(join(root, "sub", ".git", "config"))).toEqual(before);
      expect(readFileSync(join(root, "other.txt"), "utf8")).toBe("other\n");
    });

    it("class 9: configuration that concurrent calls create is bound read-only for the next call (refreshes coalesce)", async () => {
      const root = realpathSync(tempDir());
      const cx = contextFor({ fs_read: only([root]), fs_write: only([root]) });
      const calls = Array.from({ length: 8 }, (_, i) => {
        const make = `mkdir -p sub${i}/.git && echo '[core]' > sub${i}/.git/config && echo made`;
        return sandbox.run(cx, request(root, make), { coverage: NO_COVERAGE });
      });
      for (const made of await Promise.all(calls)) {
        expect(made.kind === "ran" && made.result.stdout.toString()).toBe("made\n");
      }
      const configs = Array.from({ length: 8 }, (_, i) => join(root, `sub${i}`, ".git", "config"));
      const before = configs.map(snapshot);
      const change = `for f in sub*/.git/config; do echo '[core] hooksPath = /tmp' >> "$f"; done; echo other > other.txt`;
      const changed = await sandbox.run(cx, request(root, change), { coverage: NO_COVERAGE });
      expect(changed.kind).toBe("ran");
      expect(configs.map(snapshot)).toEqual(before);
      expect(readFileSync(join(root, "other.txt"), "utf8")).toBe("other\n");
    });
  },
);
