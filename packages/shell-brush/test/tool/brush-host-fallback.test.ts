import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { caveats, only, RunEnvelopeSchema } from "@agent-bridle/core";
import { useTempDirs } from "@agent-bridle-tools/test-kit";
import { describe, expect, it } from "vitest";
import { useBrushRegistries } from "./brush-registries.js";

// Issue 15, point 4, end to end through the confined worker: the in-process utilities
// hand what they do not carry to the host's program of the same name, exec-checked and
// confined like any program; `type`, `command` and `hash` say which one runs (ADR 0015).

const tempDir = useTempDirs("brush-fallback-", "each");
const brush = useBrushRegistries();
const UTILITIES = ["ls", "cat", "head", "sort", "wc"];

function project(): string {
  const root = tempDir();
  writeFileSync(join(root, "f"), "b\na\nc\n");
  return root;
}

async function run(cmd: string, root: string, exec: readonly string[] = UTILITIES) {
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

/** What the host program prints for `argv` in `cwd`, run directly. */
function host(argv: string[], cwd: string, input?: string): string {
  const [file, ...args] = argv as [string, ...string[]];
  return execFileSync(file, args, { cwd, input, env: { LC_ALL: "C" }, encoding: "latin1" });
}

describe("the in-process utilities hand the rest to the host program", () => {
  it("ls --color=auto, ls -i, sort -z, sort -R and wc --version work, exit 0, empty stderr", async () => {
    const root = project();
    const envelope = await run(
      "ls --color=auto; ls -i f; printf 'b\\0a\\0' | sort -z; sort -R f | head -n 5 | sort; wc --version | head -n 1",
      root,
    );
    expect(envelope.stderr).toBe("");
    expect(envelope.exit_code).toBe(0);
    expect(envelope.stdout).toBe(
      [
        host(["/usr/bin/ls", "--color=auto"], root),
        host(["/usr/bin/ls", "-i", "f"], root),
        "a\0b\0",
        "a\nb\nc\n",
        `${host(["/usr/bin/wc", "--version"], root).split("\n")[0]}\n`,
      ].join(""),
    );
    expect(envelope.denials ?? []).toEqual([]);
  });

  it("the host program gets the whole input, the redirections and the argv", async () => {
    const root = project();
    const envelope = await run("sort -R -o out f < /dev/null; sort out", root);
    expect(envelope.stdout).toBe("a\nb\nc\n");
    expect(readFileSync(join(root, "out"), "latin1").split("\n").sort()).toEqual([
      "",
      "a",
      "b",
      "c",
    ]);
  });

  it("is refused as any program outside exec is: 126, EXEC_NOT_GRANTED, nothing ran", async () => {
    const root = project();
    const envelope = await run("sort -R -o out f; echo $?", root, ["ls"]);
    expect(envelope.stdout).toBe("126\n");
    expect(envelope.stderr).toMatch(/^sort: execution denied: /);
    expect(envelope.denials?.map((denial) => [denial.kind, denial.code])).toEqual([
      ["exec", "EXEC_NOT_GRANTED"],
    ]);
    expect(existsSync(join(root, "out"))).toBe(false);
    // Positive control: granted, the same command writes the file.
    const granted = await run("sort -R -o out f; echo $?", root, ["sort"]);
    expect(granted.stdout).toBe("0\n");
    expect(existsSync(join(root, "out"))).toBe(true);
  });

  it("an in-process utility outside exec is refused the same way (the rule the fallback keeps)", async () => {
    const root = project();
    const envelope = await run("sort -o out f; echo $?", root, ["ls"]);
    expect(envelope.stdout).toBe("126\n");
    expect(envelope.denials?.map((denial) => denial.code)).toEqual(["EXEC_NOT_GRANTED"]);
    expect(existsSync(join(root, "out"))).toBe(false);
  });
});

describe("type, command and hash tell which one runs", () => {
  it("names an in-process utility a shell builtin, with the program behind it", async () => {
    const root = project();
    const envelope = await run(
      "type wc; type -t wc; command -v wc; command -V wc; type -P wc; hash wc; echo hash=$?; hash -t wc; echo t=$?; builtin wc -l < f",
      root,
    );
    const wc = host(["/bin/sh", "-c", "command -v wc"], root).trim();
    expect(envelope.stdout).toBe(
      `wc is a shell builtin\nbuiltin\nwc\nwc is a shell builtin\n${wc}\nhash=0\nt=1\n3\n`,
    );
    expect(envelope.stderr).toBe("bash: line 1: hash: wc: not found\n");
    const all = await run("type -a ls", root);
    expect(all.stdout.split("\n")[0]).toBe("ls is a shell builtin");
    expect(all.stdout).toMatch(/\nls is \/.*\/ls\n/);
  });
});

describe("one call records each refusal once", () => {
  it("ls /etc outside fs_read: one denial", async () => {
    const root = project();
    const envelope = await run("ls /etc; cat /etc/hostname; ls /etc", root);
    expect(envelope.stderr).toBe(
      "ls: cannot access '/etc': Permission denied\ncat: /etc/hostname: Permission denied\nls: cannot access '/etc': Permission denied\n",
    );
    expect(envelope.denials?.map((denial) => denial.target)).toEqual(["/etc", "/etc/hostname"]);
    expect(envelope.stdout).toBe("");
  });
});

describe("ls -la under a grant of one project directory", () => {
  it("exits 0 with empty stderr, owner names, a stand-in `..`", async () => {
    const root = project();
    const envelope = await run("ls -la", root);
    expect(envelope.stderr).toBe("");
    expect(envelope.exit_code).toBe(0);
    expect(envelope.denials ?? []).toEqual([]);
    const user = host(["/usr/bin/id", "-un"], root).trim();
    const lines = envelope.stdout.split("\n");
    expect(lines[1]).toMatch(new RegExp(`^d\\S+ +\\d+ ${user} +\\S+ .* \\.$`));
    expect(lines[2]).toMatch(new RegExp(`^dr-xr-xr-x 2 ${user} +\\S+ +0 .* \\.\\.$`));
    expect(lines[3]).toMatch(new RegExp(`^-rw\\S+ 1 ${user} .* f$`));
  });

  it("lists the names of a readable directory's blocked entries without opening them", async () => {
    const root = project();
    const { registry } = brush({ kernel: true });
    const envelope = RunEnvelopeSchema.parse(
      await registry.dispatch(
        "shell",
        { cmd: "ls /; ls /etc; echo $?", cwd: root },
        registry.mintGrant(
          caveats({ fs_read: "all", fs_write: only([root]), exec: "all", net: "all" }),
        ),
      ),
    );
    expect(envelope.stdout.split("\n")).toContain("etc");
    expect(envelope.stdout.endsWith("2\n")).toBe(true);
    // Opening the blocked entry is still refused, once.
    expect(envelope.stderr).toBe("ls: cannot access '/etc': Permission denied\n");
    expect(envelope.denials?.map((denial) => [denial.target, denial.code])).toEqual([
      ["/etc", "FS_BLOCKED"],
    ]);
  });
});
