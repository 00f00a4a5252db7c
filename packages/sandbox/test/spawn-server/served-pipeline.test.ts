// A confined pipeline through the spawn server (ADR 0023, issue 20): every stage's
// launcher is the server's child, the pipes between stages are the server's own (this
// process holds no descriptor of them), and bash's wiring holds: `2>&1 |`, a stage whose
// stdout is closed, a reader that ends first, a large flow, the last stage's status.
// With AGENT_BRIDLE_SPAWN_SERVER=off the same pipelines give the same answers. Linux only:
// the server is the Linux launcher.
import { readdirSync, readFileSync, readlinkSync, realpathSync } from "node:fs";
import { NO_COVERAGE, only } from "@agent-bridle/core";
import { afterEach, describe, expect, it } from "vitest";
import { createLandlockBackend } from "../../src/backend/landlock-backend.js";
import { createSandbox, type SandboxRunRequest } from "../../src/funnel/sandbox.js";
import { contextFor, useTempDir } from "../funnel/helpers/funnel-context.js";
import { parentOf } from "./served.js";

const tempDir = useTempDir();
const sandbox = createSandbox({
  home: "/nonexistent-home",
  tmpdir: "/tmp",
  backend: createLandlockBackend(),
});

function childrenOf(pid: number): number[] {
  return readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8")
    .trim()
    .split(" ")
    .map(Number)
    .filter((n) => n > 0);
}

/** The launchers (`--policy`) among this process's children and grandchildren. */
function launchers(): number[] {
  return childrenOf(process.pid)
    .flatMap((pid) => [pid, ...childrenOf(pid)])
    .filter((pid) => readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0")[1] === "--policy");
}

/** What descriptor `fd` of the launcher's confined program points at (`pipe:[…]`, …). */
function descriptorOfTarget(launcher: number, fd: number): string {
  let pid = launcher;
  for (let depth = 0; depth < 4; depth += 1) {
    const [child] = childrenOf(pid);
    if (child === undefined) break;
    pid = child;
  }
  return readlinkSync(`/proc/${pid}/fd/${fd}`);
}

function ownDescriptors(): Set<string> {
  const links = new Set<string>();
  for (const fd of readdirSync("/proc/self/fd")) {
    try {
      links.add(readlinkSync(`/proc/self/fd/${fd}`));
    } catch {
      // closed while listed
    }
  }
  return links;
}

interface Seen {
  readonly stdout: string;
  readonly stderr: string;
  readonly exitCode: number | null;
  readonly parents: number[];
  readonly links: string[];
  readonly held: Set<string>;
}

async function run(
  stages: SandboxRunRequest["stages"],
  extra: Partial<SandboxRunRequest> = {},
  lookAtMs?: number,
): Promise<Seen> {
  const dir = realpathSync(tempDir());
  let parents: number[] = [];
  let links: string[] = [];
  let held = new Set<string>();
  const outcome = await sandbox.run(
    contextFor({ fs_write: only([dir]) }),
    {
      cwd: dir,
      timeoutMs: 10_000,
      maxOutputBytes: 1 << 20,
      stages,
      ...extra,
      onLaunched: () => {
        if (lookAtMs === undefined) return;
        setTimeout(() => {
          const found = launchers();
          parents = found.map(parentOf);
          links = found.map((pid) => descriptorOfTarget(pid, 1));
          held = ownDescriptors();
        }, lookAtMs);
      },
    },
    { coverage: NO_COVERAGE },
  );
  if (outcome.kind !== "ran") throw new Error(`not ran: ${JSON.stringify(outcome)}`);
  expect(outcome.sandboxKind).toBe("landlock");
  const { result } = outcome;
  return {
    stdout: result.stdout.toString(),
    stderr: result.stderr.toString(),
    exitCode: result.exitCode,
    parents,
    links,
    held,
  };
}

afterEach(() => {
  delete process.env.AGENT_BRIDLE_SPAWN_SERVER;
});

const SLOW = "sleep 0.6";

describe.skipIf(process.platform !== "linux")("a pipeline through the spawn server", () => {
  it("starts every stage from the server and links them with pipes this process never holds", async () => {
    const seen = await run(
      [
        ["/bin/sh", "-c", `printf 'b\\na\\nc\\n'; ${SLOW}`],
        ["/bin/sh", "-c", `sort; ${SLOW}`],
        ["/bin/sh", "-c", `head -n 2; ${SLOW}`],
      ],
      {},
      300,
    );
    expect(seen.stdout).toBe("a\nb\n");
    expect(seen.exitCode).toBe(0);
    expect(seen.parents).toHaveLength(3);
    const [server] = seen.parents;
    expect(server).not.toBe(process.pid);
    expect(new Set(seen.parents)).toEqual(new Set([server]));
    expect(readFileSync(`/proc/${server}/cmdline`, "utf8").split("\0")[1]).toBe("--serve");
    // Two stages write into a pipe (the links); the last writes into the host's capture.
    const pipes = seen.links.filter((link) => link.startsWith("pipe:"));
    expect(pipes).toHaveLength(2);
    for (const pipe of pipes) expect(seen.held.has(pipe)).toBe(false);
  });

  it("with the server off, the same pipeline's launchers are this process's children", async () => {
    process.env.AGENT_BRIDLE_SPAWN_SERVER = "off";
    const seen = await run(
      [
        ["/bin/sh", "-c", `printf 'b\\na\\nc\\n'; ${SLOW}`],
        ["/bin/sh", "-c", `head -n 2; ${SLOW}`],
      ],
      {},
      300,
    );
    expect(seen.stdout).toBe("b\na\n");
    expect(seen.parents).toEqual([process.pid, process.pid]);
  });

  for (const server of ["on", "off"]) {
    describe(`bash's wiring, server ${server}`, () => {
      const use = () => {
        if (server === "off") process.env.AGENT_BRIDLE_SPAWN_SERVER = "off";
      };

      it("moves 16 MiB between stages and reports the last stage's status", async () => {
        use();
        const seen = await run([
          ["/usr/bin/head", "-c", "16M", "/dev/zero"],
          ["/bin/sh", "-c", "wc -c; exit 3"],
        ]);
        expect(seen.stdout.trim()).toBe(String(16 << 20));
        expect(seen.exitCode).toBe(3);
      });

      it("2>&1 sends a stage's stderr into the next stage, not into the capture", async () => {
        use();
        const seen = await run([["/bin/sh", "-c", "echo out; echo err >&2"], ["/usr/bin/sort"]], {
          stageStdio: [{ stderr: "stdout" }],
        });
        expect(seen.stdout).toBe("err\nout\n");
        expect(seen.stderr).toBe("");
      });

      it("a stage whose stdout is closed leaves the next stage reading end of file", async () => {
        use();
        const seen = await run(
          [
            ["/bin/sh", "-c", "echo lost; echo kept >&2"],
            ["/bin/sh", "-c", "wc -c"],
          ],
          { stageStdio: [{ stdout: "closed" }] },
        );
        expect(seen.stdout.trim()).toBe("0");
        expect(seen.stderr).toContain("kept");
      });

      it("a writer into a reader that ended stops, and the call ends", async () => {
        use();
        const seen = await run([
          ["/bin/sh", "-c", "yes; echo status $? >&2"],
          ["/usr/bin/head", "-n", "1"],
        ]);
        expect(seen.stdout).toBe("y\n");
        // bash's answer (a pipe: SIGPIPE) through the server's links; child_process's
        // socket pairs answer ECONNRESET instead (yes reports it and exits 1).
        expect(seen.stderr).toContain(server === "on" ? "status 141" : "status 1");
        expect(seen.exitCode).toBe(0);
      });

      it("a reader that ended before the writer started leaves the writer a dead pipe", async () => {
        use();
        const seen = await run([
          ["/bin/sh", "-c", "sleep 0.3; echo late; echo status $? >&2"],
          ["/bin/true"],
        ]);
        expect(seen.stdout).toBe("");
        expect(seen.exitCode).toBe(0);
        expect(seen.stderr).toMatch(/status (1|141)|Broken pipe/);
      });
    });
  }
});
