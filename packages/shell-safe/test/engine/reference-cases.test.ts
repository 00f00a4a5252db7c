import { execFileSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  type AuditEvent,
  type Caveats,
  caveats,
  defaultPathPolicy,
  floorFromScalar,
  only,
  Registry,
  type ShellOutputStream,
  top,
} from "@agent-bridle/core";
import { NONE_BACKEND } from "@agent-bridle/sandbox";
import { describe, expect, it } from "vitest";
import { createShellTool, type ShellToolOptions } from "../../src/index.js";
import { asDenied, asRun, HOME, safeShell, useTempDirs } from "./helpers.js";

const tempDir = useTempDirs();

/** The engine in a registry that records audit events and takes a floor. */
function audited(baseDir: string, options: { floor?: "kernel" } & Partial<ShellToolOptions> = {}) {
  const events: AuditEvent[] = [];
  const { floor, ...engine } = options;
  const builder = Registry.builder()
    .tool(
      createShellTool({ home: HOME, tmpdir: "/tmp", baseDir, backend: NONE_BACKEND, ...engine }),
    )
    .pathPolicy(defaultPathPolicy({ platform: "linux", home: HOME }))
    .audit({ record: (event) => void events.push(event) });
  if (floor) builder.floor(floorFromScalar(floor));
  const registry = builder.build();
  const dispatch = (args: unknown, partial: Partial<Caveats> = {}) =>
    registry.dispatch(
      "shell",
      args,
      registry.mintGrant(caveats({ ...top(), ...partial })),
    ) as Promise<Record<string, unknown>>;
  const spawned = () =>
    events.flatMap((event) =>
      event.type === "spawn" && event.decision === "admitted" ? [event.argv] : [],
    );
  return { dispatch, spawned };
}

/** What real bash makes of `echo <pattern>` in `dir` (the exact-bash oracle). */
function bashEcho(dir: string, pattern: string): string {
  return execFileSync("/bin/bash", ["--norc", "--noprofile", "-c", `echo ${pattern}`], {
    cwd: dir,
    stdio: ["ignore", "pipe", "pipe"],
    env: { PATH: "/usr/bin:/bin", LC_ALL: "C" },
  }).toString("utf8");
}

describe("shell-safe reference cases 40, 41, 47, 49 and 71 (as spec §13 adapts them)", () => {
  it("40: a program still running at timeout_secs ends the call with timed_out, exit 124", async () => {
    const dir = tempDir();
    const { dispatch } = safeShell(dir);
    const envelope = asRun(await dispatch({ cmd: "sleep 5; touch after", timeout_secs: 0.5 }));
    expect(envelope).toMatchObject({ timed_out: true, exit_code: 124 });
    expect(envelope.stderr).toContain("command timed out after 0.5s");
    expect(existsSync(join(dir, "after"))).toBe(false);
  });

  it("41: the request env reaches the child; hostname; uname -s spawns exactly [hostname, uname]", async () => {
    const { dispatch, spawned } = audited(tempDir());
    const env = { FOO: "bar", VIRTUAL_ENV: "/venv" };
    const printed = asRun(await dispatch({ program: "env", env }, { exec: only(["env"]) }));
    expect(printed.stdout.split("\n")).toEqual(
      expect.arrayContaining(["FOO=bar", "VIRTUAL_ENV=/venv"]),
    );
    const before = spawned().length;
    const envelope = asRun(
      await dispatch({ cmd: "hostname; uname -s", env }, { exec: only(["hostname", "uname"]) }),
    );
    expect(envelope.exit_code).toBe(0);
    expect(envelope.stdout).toMatch(/\n.+\n$/);
    const programs = spawned()
      .slice(before)
      .map((argv) => (argv[0] ?? "").split("/").pop());
    expect(programs).toEqual(["hostname", "uname"]);
  });

  it("47: pattern matching is bash's: *, ?, [abc], [!abc], [a-c], * matching empty, foo*bar", async () => {
    const dir = tempDir();
    for (const name of ["a.rs", "a.txt", "abc", "ac", "ax", "bx", "cx", "dx", "foo", "fooXYbar"]) {
      writeFileSync(join(dir, name), "");
    }
    const { dispatch } = safeShell(dir);
    const cases: [string, string][] = [
      ["*.rs", "a.rs"],
      ["a?c", "abc"],
      ["[abc]x", "ax bx cx"],
      ["[!abc]x", "dx"],
      ["[a-c]x", "ax bx cx"],
      ["foo*", "foo fooXYbar"],
      ["foo*bar", "fooXYbar"],
      ["*.zz", "*.zz"],
    ];
    for (const [pattern, expected] of cases) {
      const ours = asRun(await dispatch({ cmd: `echo ${pattern}` })).stdout;
      expect(ours, pattern).toBe(`${expected}\n`);
      expect(ours, `${pattern} (bash)`).toBe(bashEcho(dir, pattern));
    }
  });

  it("49: a kernel floor with exec only[echo] is refused in-band before anything runs where exec is not kernel-held; the default floor runs it", async () => {
    const dir = tempDir();
    const strong = audited(dir, { floor: "kernel" });
    const grant = { exec: only(["echo"]) };
    const denied = asDenied(await strong.dispatch({ cmd: "echo hi > made" }, grant));
    expect(denied.denials[0]).toMatchObject({ kind: "exec", code: "ENFORCEMENT_BELOW_FLOOR" });
    expect(existsSync(join(dir, "made"))).toBe(false);
    expect(strong.spawned()).toEqual([]);
    const plain = audited(dir);
    const ran = asRun(await plain.dispatch({ cmd: "echo hi" }, grant));
    expect(ran).toMatchObject({
      exit_code: 0,
      stdout: "hi\n",
      enforcement: { exec: "interceptor" },
    });
  });

  it("71: multi-stage stderr: the observer sees the first bytes to arrive, the envelope stderr is in stage order", async () => {
    const seen: { stream: ShellOutputStream; text: string }[] = [];
    const tool = createShellTool({
      home: HOME,
      tmpdir: "/tmp",
      baseDir: tempDir(),
      backend: NONE_BACKEND,
      limits: { maxOutputBytes: 4 },
      observer: {
        onOutput: (_id, stream, chunk) =>
          void seen.push({ stream, text: Buffer.from(chunk).toString("utf8") }),
      },
    });
    const registry = Registry.builder()
      .tool(tool)
      .pathPolicy(defaultPathPolicy({ platform: "linux", home: HOME }))
      .build();
    const dispatch = (args: unknown) => registry.dispatch("shell", args, registry.mintGrant(top()));
    // Stage 1 writes "first" only after stage 2 has written "second" and gone (its
    // writes into the pipe fail then): "second" reaches the host first.
    const cmd =
      "sh -c 'trap \"\" PIPE; while printf x 2>/dev/null; do :; done; printf first >&2' | sh -c 'printf second >&2'";
    const envelope = asRun(await dispatch({ cmd }));
    const observed = seen
      .filter((event) => event.stream === "stderr")
      .map((event) => event.text)
      .join("");
    expect(observed).toBe("seco");
    expect(envelope).toMatchObject({ stderr: "firs", stderr_truncated: true });
  });
});
