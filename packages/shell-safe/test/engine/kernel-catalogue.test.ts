import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { only } from "@agent-bridle/core";
import { createLandlockBackend } from "@agent-bridle/sandbox";
import { describe, expect, it } from "vitest";
import { createShellTool } from "../../src/index.js";
import { catalogueFixture, noCanary, processesWith } from "./catalogue-fixture.js";
import { asDenied, asRun, HOME, registryWith, useTempDirs } from "./helpers.js";

// Linux only: the options entries of the attack catalogue that a granted program can act
// on (A72, A92, A98), judged per spec §12 as containment by the kernel boundary, and the
// carried fallback under the launcher.
const tempDir = useTempDirs();
const backend = createLandlockBackend();
const fixture = () => catalogueFixture(tempDir(), backend);
const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", args, {
    cwd,
    stdio: ["ignore", "pipe", "pipe"],
    env: { PATH: "/usr/bin:/bin", HOME: "/nonexistent-home", GIT_CONFIG_NOSYSTEM: "1" },
  }).toString("utf8");

/** A repository whose configuration runs helpers on read-only verbs (A72). */
function hostileRepository(A: string, marker: (n: number) => string) {
  const repo = join(A, "repo");
  mkdirSync(repo);
  git(repo, "init", "-q");
  git(repo, "config", "core.fsmonitor", `touch ${marker(1)}`);
  git(repo, "config", "core.pager", `touch ${marker(2)}`);
  git(repo, "config", "filter.x.clean", `touch ${marker(3)}`);
  writeFileSync(join(repo, ".gitattributes"), "* filter=x\n");
  writeFileSync(join(repo, "f.txt"), "content\n");
  writeFileSync(join(repo, ".git/hooks/pre-commit"), `#!/bin/sh\ntouch ${marker(4)}\n`, {
    mode: 0o755,
  });
  return repo;
}

describe.skipIf(process.platform !== "linux")(
  "attack catalogue: granted programs' own helpers are contained by the kernel (Linux, Landlock)",
  () => {
    it("A72: git status/log/diff/add in a hostile repository run no helper (markers inside the grant stay absent)", async () => {
      const { A, P, dispatch, grant } = fixture();
      const inner = (n: number) => join(A, `PWNED${n}`);
      const repo = hostileRepository(A, inner);
      // The attack is real: plain git in a copy runs the fsmonitor helper.
      const copy = join(A, "..", "copy");
      cpSync(repo, copy, { recursive: true });
      git(copy, "config", "core.fsmonitor", `touch ${join(copy, "REAL")}`);
      git(copy, "status");
      expect(existsSync(join(copy, "REAL"))).toBe(true);
      for (const cmd of ["git status", "git log", "git diff", "git add ."]) {
        const envelope = asRun(await dispatch({ cmd, cwd: repo }, grant("git")));
        expect(envelope.sandbox_kind, cmd).toBe("landlock");
      }
      // argv-form control: the same verb, the same fence
      asRun(await dispatch({ program: "git", args: ["status"], cwd: repo }, grant("git")));
      for (const n of [1, 2, 3, 4]) expect(existsSync(inner(n)), `marker ${n}`).toBe(false);
      expect(existsSync(P)).toBe(false);
    });

    it("A74: a granted program's option that names a helper cannot run it (rg is absent here; git -c core.pager is the same shape)", async () => {
      const { A, P, dispatch, grant } = fixture();
      const inner = join(A, "PWNED-pre");
      writeFileSync(join(A, "evil.sh"), `#!/bin/sh\ntouch ${inner}\n`, { mode: 0o755 });
      const repo = join(A, "r");
      mkdirSync(repo);
      git(repo, "init", "-q");
      await dispatch({ cmd: "git -c core.pager=../evil.sh -p log", cwd: repo }, grant("git"));
      await dispatch({ cmd: "git -c core.fsmonitor=../evil.sh status", cwd: repo }, grant("git"));
      const denied = asDenied(await dispatch({ cmd: "./evil.sh" }, grant("git")));
      expect(denied.denials[0]).toMatchObject({ kind: "exec", code: "EXEC_NOT_GRANTED" });
      expect(existsSync(inner)).toBe(false);
      expect(existsSync(P)).toBe(false);
    });

    it("A92: find -exec and awk system() under a find/awk grant cannot start what the grant lacks", async () => {
      const { A, O, P, dispatch, grant } = fixture();
      const inner = join(A, "PWNED-inner");
      const g = grant("find", "awk", "mawk", "gawk");
      await dispatch({ cmd: `find ${A} -maxdepth 0 -exec touch ${inner} ';'` }, g);
      await dispatch({ cmd: `awk 'BEGIN{system("touch ${inner}")}'` }, g);
      await dispatch({ cmd: `find ${A} -maxdepth 0 -exec touch ${P} ';'` }, g);
      noCanary(await dispatch({ cmd: `find ${O} -name secret.txt -exec cat '{}' ';'` }, g));
      expect(existsSync(inner)).toBe(false);
      expect(existsSync(P)).toBe(false);
      // control: a granted delegate does run inside the grant
      const ok = asRun(await dispatch({ cmd: `find ${A} -maxdepth 0 -exec ls ok.txt ';'` }, g));
      expect(ok.stdout).toBe("ok.txt\n");
    });

    it("A98: setsid -f sleep leaves no survivor after the call; ungranted setsid is refused", async () => {
      const { dispatch, grant } = fixture();
      const refused = asDenied(await dispatch({ cmd: "setsid -f sleep 300981" }, grant()));
      expect(refused.denials[0]).toMatchObject({ kind: "exec", target: "setsid" });
      const envelope = asRun(
        await dispatch({ cmd: "setsid -f sleep 300982" }, grant("setsid", "sleep")),
      );
      expect(envelope).toMatchObject({ exit_code: 0, sandbox_kind: "landlock" });
      expect(processesWith("300982")).toEqual([]);
    });

    it("carried fallback under the launcher: a granted utility the trusted PATH lacks runs carried, fenced", async () => {
      const { A, O } = fixture();
      const tool = createShellTool({
        home: HOME,
        tmpdir: "/tmp",
        baseDir: A,
        backend,
        searchPath: "/nonexistent-bin",
      });
      const { dispatch } = registryWith(tool);
      const grant = { exec: only(["cat", "wc"]), fs_read: only([A]), fs_write: only([A]) };
      const envelope = asRun(await dispatch({ cmd: "cat ok.txt | wc -c" }, grant));
      expect(envelope).toMatchObject({ exit_code: 0, stdout: "2\n", sandbox_kind: "landlock" });
      // The carried cat opens its operands itself: the kernel fences it like any program.
      const outside = asRun(await dispatch({ program: "cat", args: [`${O}/secret.txt`] }, grant));
      expect(outside.exit_code).not.toBe(0);
      noCanary(outside);
      asDenied(await dispatch({ cmd: `cat ok.txt > ${O}/x` }, grant));
      expect(existsSync(join(O, "x"))).toBe(false);
    });
  },
);
