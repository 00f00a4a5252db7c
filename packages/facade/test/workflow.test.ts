import { spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { caveats, registry } from "../src/index.js";

// Issue 15's workflow suite: everyday programs under a grant that names only the project
// (fs_read and fs_write `only[<project>]`, an exec list of the programs used, no network),
// on every engine, each step with exit 0, empty stderr and no denial. The steps run in
// order on one project per engine (a step uses what the one before made). Written in the
// safe-subset engine's language (no substitutions), so all three engines run the same text.

interface Envelope {
  readonly exit_code?: number;
  readonly stdout?: string;
  readonly stderr?: string;
  readonly denials?: readonly { readonly code: string; readonly target: string }[];
  readonly disclosure?: { readonly kernel_refusals?: string };
  readonly sandbox_kind?: string;
}

const PROGRAMS = [
  "git",
  "ls",
  "sort",
  "wc",
  "tar",
  "gzip",
  "make",
  "cc",
  "python3",
  "node",
  "npm",
  "grep",
  "sed",
  "find",
  "xargs",
  "cat",
  "echo",
  "mkdir",
];
const missing = PROGRAMS.filter(
  (program) => spawnSync("sh", ["-c", `command -v ${program}`]).status !== 0,
);
const ENGINES = ["brush", "safe", "host"] as const;

/** One step: a command line (in `cwd` below the project), what its stdout must show. */
interface Step {
  readonly title: string;
  readonly cmd: string;
  readonly cwd?: string;
  readonly stdout?: RegExp | ((stdout: string, dir: string) => void);
  readonly after?: (dir: string) => void;
}

const STEPS: readonly Step[] = [
  { title: "git init", cmd: "git init -q ." },
  {
    title: "git add and commit (the private home's identity)",
    cmd: "git add a.txt && git commit -q -m first && git log --format=%an",
    stdout: /^agent-bridle\n$/,
  },
  { title: "git log", cmd: "git log --oneline", stdout: /^[0-9a-f]+ first\n$/ },
  {
    title: "git diff and status",
    cmd: "sed -i s/one/changed/ a.txt && git diff --stat && git status --short a.txt",
    stdout: /^ a\.txt \| 2 \+-\n 1 file changed[^\n]*\n M a\.txt\n$/,
  },
  {
    title: "git branch, checkout and stash",
    cmd: "git branch feature && git checkout -q feature && git stash -q && git stash list && git branch --show-current",
    stdout: /^stash@\{0\}: WIP on feature: [\s\S]*\nfeature\n$/,
  },
  {
    title: "git clone of a local repository",
    cmd: "git clone -q . sub/clone && git -C sub/clone log --oneline",
    stdout: /^[0-9a-f]+ first\n$/,
  },
  {
    title: "ls -la with owner names",
    cmd: "ls -la a.txt",
    stdout: (stdout) => {
      const owner = userInfo().username;
      expect(stdout).toMatch(new RegExp(`^-rw\\S+ 1 ${owner} \\S+ +\\d+ .* a\\.txt\\n$`));
    },
  },
  { title: "ls --color=auto", cmd: "ls --color=auto -d a.txt", stdout: /^a\.txt\n$/ },
  { title: "sort -z", cmd: "sort -z z.bin", stdout: /^a\0b\0c\0$/ },
  {
    title: "sort -R",
    cmd: "sort -R lines.txt",
    stdout: (stdout) => expect(stdout.split("\n").sort()).toEqual(["", "x", "y", "z"]),
  },
  { title: "wc --version", cmd: "wc --version", stdout: /^wc \(GNU coreutils\)/ },
  {
    title: "tar czf and xzf (tar runs gzip)",
    cmd: "tar czf a.tgz a.txt && mkdir unpacked && tar xzf a.tgz -C unpacked && ls unpacked",
    stdout: /^a\.txt\n$/,
  },
  {
    title: "make building a C file with cc",
    cmd: "make -s",
    after: (dir) => expect(existsSync(join(dir, "hello"))).toBe(true),
  },
  // Two calls: the safe engine checks every program before anything runs, and the
  // venv's interpreter does not exist before the first.
  { title: "python3 -m venv", cmd: "python3 -m venv --without-pip venv" },
  {
    title: "the venv's interpreter (a link to the granted python3)",
    cmd: "VENV/bin/python3 -c 'import sys; print(sys.prefix)'",
    stdout: (stdout, dir) => expect(stdout).toBe(`${dir}/venv\n`),
  },
  { title: "node", cmd: "node -e 'console.log(6 * 7)'", stdout: /^42\n$/ },
  {
    title: "npm pack of a local package",
    cmd: "npm pack --silent",
    cwd: "dep",
    stdout: /^dep-1\.0\.0\.tgz\n$/,
  },
  {
    title: "npm install of a local tarball (no network)",
    cmd: "npm install --offline --no-audit --no-fund --loglevel=error ../dep/dep-1.0.0.tgz && node -e 'console.log(require(\"dep\"))'",
    cwd: "app",
    stdout: /added 1 package[\s\S]*\n42\n$/,
  },
  {
    title: "grep -r, sed -i, find -name, xargs",
    cmd: "grep -r needle notes && sed -i s/needle/thread/ notes/n.txt && find notes -name n.txt && echo notes/n.txt | xargs cat",
    stdout: /^notes\/n\.txt:a needle\nnotes\/n\.txt\na thread\n$/,
  },
];

function makeProject(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "bridle-workflow-")));
  writeFileSync(join(dir, "a.txt"), "one\n");
  writeFileSync(join(dir, "z.bin"), "c\0a\0b\0");
  writeFileSync(join(dir, "lines.txt"), "x\ny\nz\n");
  writeFileSync(join(dir, "hello.c"), "int main(void) { return 0; }\n");
  writeFileSync(join(dir, "Makefile"), "hello: hello.c\n\tcc -o hello hello.c\n");
  mkdirSync(join(dir, "notes"));
  writeFileSync(join(dir, "notes", "n.txt"), "a needle\n");
  for (const name of ["dep", "app"]) mkdirSync(join(dir, name));
  writeFileSync(
    join(dir, "dep", "package.json"),
    JSON.stringify({ name: "dep", version: "1.0.0", main: "index.js" }),
  );
  writeFileSync(join(dir, "dep", "index.js"), "module.exports = 42;\n");
  writeFileSync(
    join(dir, "app", "package.json"),
    JSON.stringify({ name: "app", version: "1.0.0" }),
  );
  return dir;
}

describe.skipIf(process.platform !== "linux" || missing.length > 0)(
  // Linux: the kernel boundary (the launcher's private view) is what these programs run in.
  `everyday programs under a grant of one project (Linux${missing.length > 0 ? `; missing: ${missing.join(", ")}` : ""})`,
  () => {
    describe.each(ENGINES)("%s engine", (engine) => {
      let dir = "";
      let tools: ReturnType<typeof registry>;
      beforeAll(() => {
        dir = makeProject();
        tools = registry({ baseDir: dir, shell: engine, shellOptions: { warm: false } });
      });
      afterAll(async () => {
        await tools.close();
        rmSync(dir, { recursive: true, force: true });
      });
      const grant = () =>
        tools.mintGrant(
          caveats({
            fs_read: { only: [dir] },
            fs_write: { only: [dir] },
            exec: { only: PROGRAMS },
            net: { only: [] },
          }),
        );

      it.each(STEPS.map((step) => [step.title, step] as const))(
        "%s",
        async (_title, step) => {
          const cmd = step.cmd.replaceAll("VENV", join(dir, "venv"));
          const cwd = step.cwd === undefined ? dir : join(dir, step.cwd);
          const result = (await tools.dispatch("shell", { cmd, cwd }, grant())) as Envelope;
          expect({ stderr: result.stderr, denials: result.denials }).toEqual({
            stderr: "",
            denials: undefined,
          });
          expect(result.exit_code).toBe(0);
          if (step.stdout instanceof RegExp) expect(result.stdout).toMatch(step.stdout);
          else step.stdout?.(result.stdout ?? "", dir);
          step.after?.(dir);
        },
        60_000,
      );
    });

    it("the README's TypeScript example runs as written and writes the right count", async () => {
      // As the README: read the project and the program tree, write only out/, run git and wc.
      const project = realpathSync(mkdtempSync(join(tmpdir(), "bridle-readme-")));
      try {
        mkdirSync(join(project, "out"));
        const git = (...args: string[]) =>
          spawnSync("git", ["-C", project, ...args], {
            env: {
              ...process.env,
              GIT_AUTHOR_NAME: "t",
              GIT_AUTHOR_EMAIL: "t@t",
              GIT_COMMITTER_NAME: "t",
              GIT_COMMITTER_EMAIL: "t@t",
            },
          });
        git("init", "-q");
        for (const n of [1, 2, 3]) git("commit", "-q", "--allow-empty", "-m", `c${n}`);
        const tools = registry({ baseDir: project });
        const grant = tools.mintGrant(
          caveats({
            fs_read: { only: [project, "/usr"] },
            fs_write: { only: [join(project, "out")] },
            exec: { only: ["git", "grep", "wc"] },
            net: { only: [] },
            max_calls: { at_most: 100 },
          }),
        );
        const result = (await tools.dispatch(
          "shell",
          { cmd: "git log --oneline | wc -l > out/count.txt" },
          grant,
        )) as Envelope;
        await tools.close();
        expect({ exit: result.exit_code, stderr: result.stderr, denials: result.denials }).toEqual({
          exit: 0,
          stderr: "",
          denials: undefined,
        });
        expect(readFileSync(join(project, "out", "count.txt"), "utf8").trim()).toBe("3");
      } finally {
        rmSync(project, { recursive: true, force: true });
      }
    }, 60_000);
  },
);

describe.skipIf(process.platform !== "linux")("a kernel refusal (ADR 0013)", () => {
  it.each(ENGINES)(
    "%s engine: a granted program reading outside the grant gets ENOENT, and the result says kernel refusals are not itemised",
    async (engine) => {
      const root = realpathSync(mkdtempSync(join(tmpdir(), "bridle-kernel-refusal-")));
      try {
        const inside = join(root, "inside");
        const outside = join(root, "outside");
        mkdirSync(inside);
        mkdirSync(outside);
        writeFileSync(join(outside, "secret"), "CANARY-KR\n");
        writeFileSync(join(inside, "ok"), "OK\n");
        const tools = registry({ baseDir: inside, shell: engine, shellOptions: { warm: false } });
        const grant = () =>
          tools.mintGrant(
            caveats({
              fs_read: { only: [inside] },
              fs_write: { only: [inside] },
              exec: { only: ["python3"] },
              net: { only: [] },
            }),
          );
        const read = (path: string) =>
          tools.dispatch(
            "shell",
            { cmd: `python3 -c 'print(open("${path}").read(), end="")'` },
            grant(),
          ) as Promise<Envelope>;
        const refused = await read(join(outside, "secret"));
        const control = await read(join(inside, "ok"));
        await tools.close();
        expect(refused.exit_code).not.toBe(0);
        expect(JSON.stringify(refused)).not.toContain("CANARY-KR");
        expect(refused.stderr).toContain("No such file or directory");
        expect(refused.disclosure?.kernel_refusals).toBe("not_itemised");
        expect(refused.sandbox_kind).toBe("landlock");
        // Control: the same program inside the grant reads its file.
        expect(control).toMatchObject({ exit_code: 0, stdout: "OK\n" });
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    },
    60_000,
  );
});
