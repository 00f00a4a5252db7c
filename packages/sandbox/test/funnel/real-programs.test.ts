import { spawnSync } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { type Caveats, NO_COVERAGE, only } from "@agent-bridle/core";
import { describe, expect, it } from "vitest";
import { createLandlockBackend } from "../../src/backend/landlock-backend.js";
import { linkChain, programParts } from "../../src/backend/program-parts.js";
import { createSandbox, type SandboxRunRequest } from "../../src/funnel/sandbox.js";
import { contextFor, useTempDir } from "./helpers/funnel-context.js";

// Issue 15, ADR 0013: granted programs run as themselves under a grant of one project
// (their link chains, interpreters and helpers), a call whose HOME is out of its grant gets
// a private home with a git identity, and the view's /tmp takes temporary files. Real
// programs (git, make, cc, tar, gzip) through the real launcher; Linux only.
const tempDir = useTempDir();
const backend = createLandlockBackend();
const has = (program: string) => spawnSync("sh", ["-c", `command -v ${program}`]).status === 0;

function sandboxWith(home = "/nonexistent-home", gitIdentity?: { name: string; email: string }) {
  return createSandbox({ home, tmpdir: "/tmp", backend, gitIdentity });
}

function request(script: string, cwd: string, extra: Partial<SandboxRunRequest> = {}) {
  return {
    cwd,
    timeoutMs: 30_000,
    maxOutputBytes: 1 << 20,
    stages: [["bash", "--norc", "--noprofile", "-c", script]],
    ...extra,
  } satisfies SandboxRunRequest;
}

let projects = 0;

/** The project grant of the issue: read and write one fresh directory, the listed programs, no net. */
function project(exec: readonly string[]): { dir: string; grant: Partial<Caveats> } {
  projects += 1;
  const dir = join(realpathSync(tempDir()), `project-${projects}`);
  mkdirSync(dir);
  return {
    dir,
    grant: {
      fs_read: only([dir]),
      fs_write: only([dir]),
      exec: only(["bash", ...exec]),
      net: only([]),
    },
  };
}

async function run(grant: Partial<Caveats>, script: string, cwd: string, sandbox = sandboxWith()) {
  const outcome = await sandbox.run(contextFor(grant), request(script, cwd), {
    coverage: NO_COVERAGE,
  });
  if (outcome.kind !== "ran") throw new Error(`not run: ${JSON.stringify(outcome)}`);
  return {
    status: outcome.result.exitCode,
    stdout: outcome.result.stdout.toString(),
    stderr: outcome.result.stderr.toString(),
    outcome,
  };
}

describe("program parts (ADR 0013)", () => {
  it("follows a link chain hop by hop, each hop in its real directory", async () => {
    const dir = realpathSync(tempDir());
    writeFileSync(join(dir, "real"), "");
    symlinkSync("real", join(dir, "b"));
    symlinkSync(join(dir, "b"), join(dir, "a"));
    expect(await linkChain(join(dir, "a"))).toEqual([
      join(dir, "a"),
      join(dir, "b"),
      join(dir, "real"),
    ]);
    expect(await linkChain(join(dir, "missing"))).toEqual([]);
  });

  it("a script's #! interpreter, and env's program on the trusted PATH, are parts", async () => {
    const dir = realpathSync(tempDir());
    const script = join(dir, "tool");
    writeFileSync(script, "#!/usr/bin/env sh\necho hi\n");
    chmodSync(script, 0o755);
    const parts = await programParts(script);
    expect(parts).toContain(script);
    expect(parts).toContain("/usr/bin/env");
    expect(parts.some((part) => part.endsWith("/sh"))).toBe(true);
    // Control: a program without a #! line has only its chain.
    writeFileSync(join(dir, "plain"), "\x7fELF");
    expect(await programParts(join(dir, "plain"))).toEqual([join(dir, "plain")]);
  });
});

describe.skipIf(process.platform !== "linux")("real programs under a grant of one project", () => {
  it.skipIf(!has("git"))("git clone of a local repository runs git's helpers and sh", async () => {
    const { dir, grant } = project(["git"]);
    const script = [
      "git init -q src && cd src && echo one > f && git add f && git commit -qm first",
      "cd .. && git clone -q src copy && git -C copy log --format=%an:%s",
    ].join(" && ");
    const result = await run(grant, script, dir);
    expect(result).toMatchObject({ status: 0, stderr: "", stdout: "agent-bridle:first\n" });
    expect(readdirSync(join(dir, "copy"))).toContain("f");
  });

  it.skipIf(!has("make") || !has("cc"))(
    "make runs cc through its link chain and passes",
    async () => {
      const { dir, grant } = project(["make", "cc"]);
      writeFileSync(join(dir, "m.c"), "int main(void) { return 0; }\n");
      writeFileSync(join(dir, "Makefile"), "m: m.c\n\tcc -o m m.c\n");
      const result = await run(grant, "make -s", dir);
      expect(result).toMatchObject({ status: 0, stderr: "" });
      expect(existsSync(join(dir, "m"))).toBe(true);
    },
  );

  it.skipIf(!has("make") || !has("cc") || !existsSync("/usr/include/stdio.h"))(
    "cc finds the system headers (#include <stdio.h>), which stay read-only",
    async () => {
      const { dir, grant } = project(["make", "cc"]);
      writeFileSync(
        join(dir, "hello.c"),
        '#include <stdio.h>\nint main(void) { puts("hello"); return 0; }\n',
      );
      writeFileSync(join(dir, "Makefile"), "hello: hello.c\n\tcc -o hello hello.c\n");
      const result = await run(grant, "make -s", dir);
      expect(result).toMatchObject({ status: 0, stderr: "" });
      expect(spawnSync(join(dir, "hello"), { encoding: "utf8" }).stdout).toBe("hello\n");
      const before = readFileSync("/usr/include/stdio.h");
      const written = await run(grant, "echo x >> /usr/include/stdio.h", dir);
      expect(written.status).not.toBe(0);
      expect(readFileSync("/usr/include/stdio.h")).toEqual(before);
    },
  );

  it.skipIf(!has("tar") || !has("gzip"))("tar runs gzip only when gzip is granted", async () => {
    const { dir, grant } = project(["tar"]);
    writeFileSync(join(dir, "a.txt"), "a\n");
    const refused = await run(grant, "tar czf a.tgz a.txt", dir);
    expect(refused.status).not.toBe(0);
    expect(
      existsSync(join(dir, "a.tgz")) && spawnSync("gzip", ["-t", join(dir, "a.tgz")]).status === 0,
    ).toBe(false);
    const withGzip = project(["tar", "gzip"]);
    writeFileSync(join(withGzip.dir, "a.txt"), "a\n");
    const made = await run(withGzip.grant, "tar czf a.tgz a.txt && tar tzf a.tgz", withGzip.dir);
    expect(made).toMatchObject({ status: 0, stdout: "a.txt\n", stderr: "" });
  });

  it("a program a granted program is not made of stays refused (cat via git's sh)", async () => {
    const script = "git init -q . && git -c alias.x='!cat note' x";
    const refused = project(["git"]);
    writeFileSync(join(refused.dir, "note"), "NOTE\n");
    const result = await run(refused.grant, script, refused.dir);
    expect(result.status).not.toBe(0);
    expect(result.stdout).not.toContain("NOTE");
    // Control: granted, the same alias prints the file.
    const granted = project(["git", "cat"]);
    writeFileSync(join(granted.dir, "note"), "NOTE\n");
    expect(await run(granted.grant, script, granted.dir)).toMatchObject({
      status: 0,
      stdout: "NOTE\n",
      stderr: "",
    });
  });
});

describe.skipIf(process.platform !== "linux")("HOME (kernel-boundary.md §3)", () => {
  it("out of the grant: a private home with the configured identity, gone after the call", async () => {
    const { dir, grant } = project(["git", "touch", "ls"]);
    const sandbox = sandboxWith("/nonexistent-home", { name: "Ada", email: "ada@example.org" });
    const script =
      'echo "$HOME" && git config --global user.email && touch "$HOME/made" && ls -A "$HOME"';
    const result = await run(grant, script, dir, sandbox);
    expect(result.stderr).toBe("");
    const [home, email, ...listing] = result.stdout.trim().split("\n");
    expect(home).toMatch(/\/bridle-call-[^/]+\/home$/);
    expect(email).toBe("ada@example.org");
    expect(listing.sort()).toEqual([".gitconfig", "made"]);
    expect(existsSync(home as string)).toBe(false);
  });

  it("inside the grant: the configured home itself", async () => {
    const { dir, grant } = project(["ls"]);
    const home = join(dir, "home");
    mkdirSync(home);
    const result = await run(grant, 'echo "$HOME"; ls -A "$HOME"', dir, sandboxWith(home));
    expect(result).toMatchObject({ status: 0, stdout: `${home}\n`, stderr: "" });
  });

  it("refuses an identity git could not store on one line", () => {
    expect(() => sandboxWith("/h", { name: "a\nb", email: "e" })).toThrow(/control characters/);
    expect(() => sandboxWith("/h", { name: "", email: "e" })).toThrow(/non-empty/);
  });
});

describe.skipIf(process.platform !== "linux")("the view's /tmp", () => {
  it("takes temporary files under restricted writes, and they stay in the call", async () => {
    const { dir, grant } = project(["cat"]);
    const name = `bridle-tmp-probe-${process.pid}`;
    const result = await run(grant, `echo hi > /tmp/${name} && cat /tmp/${name}`, dir);
    expect(result).toMatchObject({ status: 0, stdout: "hi\n", stderr: "" });
    expect(existsSync(join("/tmp", name))).toBe(false);
  });

  it("stays closed when a write-only root lies beneath it (the root stays unreadable)", async () => {
    const dir = realpathSync(tempDir());
    const writeOnly = join(dir, "drop");
    mkdirSync(writeOnly);
    writeFileSync(join(writeOnly, "secret"), "CANARY-WO\n");
    const grant = { fs_read: only([]), fs_write: only([writeOnly]), exec: only(["bash", "cat"]) };
    const result = await run(grant, `cat ${writeOnly}/secret; echo x > ${writeOnly}/new`, "/");
    expect(result.stdout).not.toContain("CANARY-WO");
    // Control: the write-only root takes writes.
    expect(existsSync(join(writeOnly, "new"))).toBe(true);
  });

  it("a stand-in for a hidden host directory takes no file (nothing reaches the host)", async () => {
    const dir = realpathSync(tempDir());
    const inside = join(dir, "work");
    mkdirSync(inside);
    const grant = { fs_write: only([inside]), exec: only(["bash", "touch"]) };
    const result = await run(grant, `touch ${dir}/outside`, "/");
    expect(result.status).not.toBe(0);
    expect(existsSync(join(dir, "outside"))).toBe(false);
    const made = await run(grant, `touch ${inside}/made`, "/");
    expect(made.status).toBe(0);
    expect(existsSync(join(inside, "made"))).toBe(true);
  });
});
