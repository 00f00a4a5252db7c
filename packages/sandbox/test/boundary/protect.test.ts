// Kernel boundary, class 9 (kernel-boundary.md §1.2, §2 "secrets"): write-blocked
// configuration that exists when the call starts (an existing repository's .git/config
// and the .git/commondir indirection) stays as it was, though it lies inside a write root.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import {
  attack,
  dir,
  expectContained,
  expectRan,
  type Fixture,
  file,
  fixture,
  funnelPolicy,
  hostState,
  type Mode,
  modes,
  settleTimes,
  setUpLauncher,
  snapshot,
} from "./kit.js";

const GIT_CONFIG = "[core]\n\trepositoryformatversion = 0\n";
const COMMONDIR = "../common\n";

// Every way to change a protected file in place, by name or by replacement.
const IN_PLACE = `
import stat
R = ARGS["repo"]
for name in ("config", "commondir"):
    P = R + "/.git/" + name
    evil = R + "/evil-" + name
    write(evil, "[core]\\n\\tfsmonitor = /tmp/evil\\n")
    probe(name + ":append", lambda: write(P, "[core]\\n\\tfsmonitor = evil\\n", os.O_WRONLY | os.O_APPEND))
    probe(name + ":truncate-open", lambda: write(P, "", os.O_WRONLY | os.O_TRUNC))
    probe(name + ":truncate", lambda: os.truncate(P, 0))
    probe(name + ":replace", lambda: os.replace(evil, P))
    probe(name + ":rename-away", lambda: os.rename(P, P + ".old"))
    probe(name + ":unlink", lambda: os.unlink(P))
    probe(name + ":chmod", lambda: os.chmod(P, 0o777))
    probe(name + ":utime", lambda: os.utime(P, (0, 0)))
    probe(name + ":setxattr", lambda: os.setxattr(P, "user.attack", b"1"))
    probe(name + ":link-over", lambda: os.link(evil, P))
    probe(name + ":symlink-over", lambda: (os.symlink(evil, R + "/lnk-" + name), os.replace(R + "/lnk-" + name, P)))
# Positive control: the rest of the repository is writable.
probe("control:work-file", lambda: write(R + "/src.txt", "changed by the call"))
probe("control:git-file", lambda: write(R + "/.git/HEAD", "ref: refs/heads/other\\n"))
`;

// Moves the protected files' directory (or the repository) aside and plants new ones.
const BY_PARENT = `
R = ARGS["repo"]
probe("move-git", lambda: os.rename(R + "/.git", R + "/.git-moved"))
probe("plant-git", lambda: (os.mkdir(R + "/.git"),
                            write(R + "/.git/config", "[core]\\n\\tfsmonitor = /tmp/evil\\n"),
                            write(R + "/.git/commondir", "/tmp/evil\\n")))
`;

function repoIn(mode: Mode, f: Fixture) {
  const repo = dir(mode, join(f.write, "repo"));
  const git = dir(mode, join(repo, ".git"));
  const config = file(mode, join(git, "config"), GIT_CONFIG);
  const commondir = file(mode, join(git, "commondir"), COMMONDIR);
  file(mode, join(git, "HEAD"), "ref: refs/heads/main\n");
  file(mode, join(repo, "src.txt"), "source\n");
  settleTimes(f.base);
  return { repo, git, config, commondir };
}

// The launcher is Linux-only (namespaces, Landlock, seccomp).
describe.skipIf(process.platform !== "linux")(
  "kernel boundary: write-blocked configuration",
  () => {
    beforeAll(async () => {
      await setUpLauncher();
    });

    describe.each(modes)("as $name", (mode) => {
      it(`class 9 (protect) as ${mode.name}: an existing .git/config and .git/commondir cannot be modified, truncated, renamed or replaced`, async () => {
        const f = fixture(mode);
        const { repo, config, commondir } = repoIn(mode, f);
        const state = hostState();
        const tree = snapshot([f.base], [f.write]);
        const protectedFiles = snapshot([config, commondir]);
        const a = await attack(mode, funnelPolicy(f, { protect: [config, commondir] }), IN_PLACE, {
          repo,
        });
        expectContained(a, f.canaries);
        const changed = Object.entries(a.results)
          .filter(([name, p]) => !name.startsWith("control:") && "ok" in p)
          .map(([name]) => name);
        expect(changed).toEqual([]);
        expect(snapshot([config, commondir])).toEqual(protectedFiles);
        expect(readFileSync(config, "utf8")).toBe(GIT_CONFIG);
        expect(readFileSync(commondir, "utf8")).toBe(COMMONDIR);
        // Positive control: the rest of the repository, .git included, took the writes.
        expect(a.results["control:work-file"]).toEqual({ ok: 19 });
        expect(a.results["control:git-file"]).toEqual({ ok: 22 });
        expect(readFileSync(join(repo, "src.txt"), "utf8")).toBe("changed by the call");
        expect(snapshot([f.base], [f.write])).toEqual(tree);
        expect(hostState()).toEqual(state);
      });

      // Was a hole: `protect` bound each existing file read-only, but `.git` stayed an
      // ordinary directory, so `mv .git .git-moved; mkdir .git` planted a new config. Every
      // directory between the write root and a protected path is now a mount point (a pin),
      // which rename(2) and rmdir(2) refuse.
      it(`class 9 (protect) as ${mode.name}: moving .git aside does not let the call replace .git/config`, async () => {
        const f = fixture(mode);
        const { repo, config, commondir } = repoIn(mode, f);
        const a = await attack(mode, funnelPolicy(f, { protect: [config, commondir] }), BY_PARENT, {
          repo,
        });
        expectRan(a);
        expect(readFileSync(config, "utf8")).toBe(GIT_CONFIG);
        expect(readFileSync(commondir, "utf8")).toBe(COMMONDIR);
      });
    });
  },
);
