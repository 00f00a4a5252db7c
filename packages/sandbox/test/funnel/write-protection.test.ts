import { spawnSync } from "node:child_process";
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
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

/** A real repository (`git init`) lacking some of what git's templates put in `.git`. */
function gitInitWithout(repo: string, ...names: string[]) {
  spawnSync("git", ["init", "-q", repo]);
  for (const name of names) rmSync(join(repo, ".git", name), { recursive: true, force: true });
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

    it("class 9: indirections an existing repository lacks (commondir, hooks, info) that a program creates are moved aside when the call ends; git afterwards runs nothing planted", async () => {
      const root = realpathSync(tempDir());
      const git = (...args: string[]) =>
        spawnSync("git", ["-C", join(root, "repo"), ...args], { encoding: "utf8" });
      gitInitWithout(join(root, "repo"), "hooks", "info");
      const marker = join(root, "PWNED");
      const evilConfig = `[core]\n\trepositoryformatversion = 0\n\tfsmonitor = "touch ${marker}; false"\n`;
      const cx = contextFor({ fs_read: only([root]), fs_write: only([root]), exec: "all" });
      const attack = [
        // A common directory of the attacker's (a copy of the repository, its own config).
        "cp -r repo/.git evil && printf '%s' \"$EVIL\" > evil/config",
        "printf '%s\\n' \"$PWD/evil\" > repo/.git/commondir",
        "mkdir repo/.git/hooks && printf '#!/bin/sh\\ntouch PWNED\\n' > repo/.git/hooks/pre-commit",
        "chmod +x repo/.git/hooks/pre-commit",
        "mkdir repo/.git/info && echo '* filter=evil' > repo/.git/info/attributes",
        "echo ok > repo/work.txt",
      ].join(" && ");
      const outcome = await sandbox.run(
        cx,
        { ...request(root, attack), env: { EVIL: evilConfig } },
        { coverage: NO_COVERAGE },
      );
      expect(outcome).toMatchObject({ kind: "ran", report: { fs_write: "kernel" } });
      if (outcome.kind !== "ran") return;
      expect(outcome.result.exitCode).toBe(0); // the attack itself ran to its end
      const gitDir = join(root, "repo", ".git");
      for (const name of ["commondir", "hooks", "info"]) {
        expect(existsSync(join(gitDir, name)), name).toBe(false);
      }
      const aside = readdirSync(gitDir).filter((name) => name.includes(".bridle-planted-"));
      expect(aside.map((name) => name.split(".bridle-planted-")[0]).sort()).toEqual([
        "commondir",
        "hooks",
        "info",
      ]);
      expect(
        (outcome.lateDenials ?? []).map((denial) => [denial.code, denial.target]).sort(),
      ).toEqual(["commondir", "hooks", "info"].map((name) => ["FS_BLOCKED", join(gitDir, name)]));
      // The user's next git commands, outside any boundary, run nothing planted.
      expect(git("status", "--porcelain").status).toBe(0);
      const committed = git(
        "-c",
        "user.email=u@example.com",
        "-c",
        "user.name=u",
        "commit",
        "-qam",
        "x",
        "--allow-empty",
      );
      expect(committed.status).toBe(0);
      expect(existsSync(marker)).toBe(false);
      expect(existsSync(join(root, "repo", "PWNED"))).toBe(false);
      // Positive control: the call's ordinary write stays.
      expect(readFileSync(join(root, "repo", "work.txt"), "utf8")).toBe("ok\n");
    });

    it("class 9: ordinary git work in an existing repository leaves nothing moved aside, and a repository the call creates keeps its hooks", async () => {
      const root = realpathSync(tempDir());
      gitInitWithout(join(root, "repo"), "hooks");
      const cx = contextFor({ fs_read: only([root]), fs_write: only([root]), exec: "all" });
      const work = [
        "cd repo && echo a > a && git add a",
        "git -c user.email=u@example.com -c user.name=u commit -qm a",
        "git branch b && git tag t && git gc -q",
        "cd .. && git init -q fresh && ls fresh/.git/hooks | head -1",
      ].join(" && ");
      const outcome = await sandbox.run(cx, request(root, work), { coverage: NO_COVERAGE });
      expect(outcome.kind === "ran" && outcome.result.exitCode).toBe(0);
      if (outcome.kind !== "ran") return;
      expect(outcome.lateDenials ?? []).toEqual([]);
      expect(
        readdirSync(join(root, "repo", ".git")).filter((n) => n.includes("bridle-planted")),
      ).toEqual([]);
      expect(readdirSync(join(root, "fresh", ".git", "hooks")).length).toBeGreaterThan(0);
      expect(
        spawnSync("git", ["-C", join(root, "repo"), "log", "--format=%s"], { encoding: "utf8" })
          .stdout,
      ).toBe("a\n");
    });

    it("class 9: agent, editor and shell configuration a program creates in a write root or a repository's root (.mcp.json, .claude/, .vscode/, .bashrc) is moved aside; a repository the call clones keeps its own", async () => {
      const base = realpathSync(tempDir());
      const root = join(base, "root");
      const origin = join(base, "origin");
      const fresh = join(base, "fresh");
      for (const dir of [root, fresh]) mkdirSync(dir);
      spawnSync("git", ["init", "-q", join(root, "repo")]);
      // A repository to clone, whose tracked files include editor settings.
      spawnSync("git", ["init", "-q", origin]);
      mkdirSync(join(origin, ".vscode"));
      writeFileSync(join(origin, ".vscode", "settings.json"), "{}\n");
      spawnSync("git", ["-C", origin, "add", "."]);
      spawnSync("git", [
        "-C",
        origin,
        "-c",
        "user.email=u@e",
        "-c",
        "user.name=u",
        "commit",
        "-qm",
        "o",
      ]);
      // \`fresh\`: a second write root, empty, that the call clones into (a new repository).
      const cx = contextFor({
        fs_read: only([root, origin, fresh]),
        fs_write: only([root, fresh]),
        exec: "all",
      });
      const plant = [
        `echo '{"mcpServers":{"x":{"command":"touch","args":["${root}/PWNED"]}}}' > .mcp.json`,
        "mkdir -p repo/.claude && echo '{}' > repo/.claude/settings.json",
        "mkdir repo/.vscode && echo '{}' > repo/.vscode/tasks.json",
        "echo 'touch PWNED' > .bashrc",
        `git clone -q ${origin} ${fresh}`,
        "echo ok > work.txt",
      ].join(" && ");
      const outcome = await sandbox.run(cx, request(root, plant), { coverage: NO_COVERAGE });
      expect(
        outcome.kind === "ran" && [outcome.result.exitCode, outcome.result.stderr.toString()],
      ).toEqual([0, ""]);
      if (outcome.kind !== "ran") return;
      const planted = [".mcp.json", "repo/.claude", "repo/.vscode", ".bashrc"];
      for (const path of planted) expect(existsSync(join(root, path)), path).toBe(false);
      expect((outcome.lateDenials ?? []).map((d) => [d.code, d.target]).sort()).toEqual(
        planted.map((path) => ["FS_BLOCKED", join(root, path)]).sort(),
      );
      expect(readdirSync(root).filter((name) => name.includes(".bridle-planted-")).length).toBe(2);
      // Controls: the clone keeps its tracked settings; the ordinary write stays.
      expect(readFileSync(join(fresh, ".vscode", "settings.json"), "utf8")).toBe("{}\n");
      expect(readFileSync(join(root, "work.txt"), "utf8")).toBe("ok\n");
    });

    it("class 9: the submodule and worktree routes into an existing repository (a gitlink with a .git file leading elsewhere, a new module whose config or hooks git did not write, a worktree's commondir leading elsewhere) are moved aside; git worktree add is kept", async () => {
      const root = realpathSync(tempDir());
      const repo = join(root, "repo");
      const git = (...args: string[]) =>
        spawnSync("git", ["-C", repo, ...args], { encoding: "utf8" });
      spawnSync("git", ["init", "-q", repo]);
      writeFileSync(join(repo, "a"), "a\n");
      git("add", "a");
      git("-c", "user.email=u@e", "-c", "user.name=u", "commit", "-qm", "a");
      const marker = join(root, "PWNED");
      const fsmonitor = `\\tfsmonitor = \\"touch ${marker}; false\\"`;
      const cx = contextFor({ fs_read: only([root]), fs_write: only([root]), exec: "all" });
      const plant = [
        // Route 1: a gitlink whose .git file leads to a git directory of the attacker's.
        "git init -q --bare evil",
        `printf '[core]\\n\\tbare = false\\n\\tworktree = ${repo}/sub\\n${fsmonitor}\\n' > evil/config`,
        `mkdir repo/sub && echo 'gitdir: ${root}/evil' > repo/sub/.git`,
        "git -C repo update-index --add --cacheinfo 160000,$(git -C repo rev-parse HEAD),sub",
        // Route 2: a module of the repository's own, with a config and a hook git never writes.
        "mkdir -p repo/.git/modules && cp -r evil repo/.git/modules/m",
        `printf '[core]\\n\\tworktree = ../../../m\\n${fsmonitor}\\n' > repo/.git/modules/m/config`,
        "printf '#!/bin/sh\\ntouch PWNED\\n' > repo/.git/modules/m/hooks/pre-commit",
        "mkdir repo/m && echo 'gitdir: ../.git/modules/m' > repo/m/.git",
        "git -C repo update-index --add --cacheinfo 160000,$(git -C repo rev-parse HEAD),m",
        // Route 3: a linked worktree's common directory aimed at the attacker's.
        `mkdir -p repo/.git/worktrees/x && echo ${root}/evil > repo/.git/worktrees/x/commondir`,
        // Control: a linked worktree git adds itself inside the repository.
        "git -C repo worktree add -q wt",
      ].join(" && ");
      const outcome = await sandbox.run(cx, request(root, plant), { coverage: NO_COVERAGE });
      expect(
        outcome.kind === "ran" && [outcome.result.exitCode, outcome.result.stderr.toString()],
      ).toEqual([0, ""]);
      if (outcome.kind !== "ran") return;
      const moved = [
        join(repo, "sub", ".git"),
        join(repo, ".git", "modules", "m", "config"),
        join(repo, ".git", "modules", "m", "hooks", "pre-commit"),
        join(repo, ".git", "worktrees", "x", "commondir"),
      ];
      expect((outcome.lateDenials ?? []).map((d) => d.target).sort()).toEqual([...moved].sort());
      for (const path of moved) expect(existsSync(path), path).toBe(false);
      // The user's next git commands run nothing planted; the worktree works.
      expect(git("status", "--porcelain").status).toBe(0);
      expect(
        git("-c", "user.email=u@e", "-c", "user.name=u", "commit", "-qm", "b", "--allow-empty")
          .status,
      ).toBe(0);
      expect(existsSync(marker)).toBe(false);
      expect(existsSync(join(repo, "PWNED"))).toBe(false);
      expect(spawnSync("git", ["-C", join(repo, "wt"), "status", "--porcelain"]).status).toBe(0);
      expect(readFileSync(join(repo, "wt", "a"), "utf8")).toBe("a\n");
    });
  },
);
