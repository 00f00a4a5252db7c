import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { NO_COVERAGE, only } from "@agent-bridle/core";
import { describe, expect, it } from "vitest";
import { createLandlockBackend } from "../../src/backend/landlock-backend.js";
import { createSandbox, type SandboxRunRequest } from "../../src/funnel/sandbox.js";
import { contextFor, sleep, useTempDir } from "./helpers/funnel-context.js";

// The funnel with the real `bridle-launch`. Linux only: the launcher is Linux's backend
// (Landlock, seccomp, namespaces); elsewhere the whole file is skipped. On Linux a
// launcher that cannot run is a failure, not a skip.
const backend = createLandlockBackend();
const probe = await backend.probe();
const tempDir = useTempDir();
const sandbox = createSandbox({ home: "/nonexistent-home", tmpdir: "/tmp", backend });
/** The kernel's transparent huge page mode (absent where the kernel has no THP). */
const THP_MODE = "/sys/kernel/mm/transparent_hugepage/enabled";

function request(stages: string[][], extra: Partial<SandboxRunRequest> = {}): SandboxRunRequest {
  return { cwd: "/", timeoutMs: 5000, maxOutputBytes: 65536, stages, ...extra };
}

describe.skipIf(process.platform !== "linux")("the funnel with the real launcher", () => {
  it("the launcher is built and usable on this Linux host", () => {
    expect(probe).toMatchObject({ available: true });
  });

  it("caps the process count of the whole tree (also as root)", async () => {
    const dir = realpathSync(tempDir());
    const cx = contextFor({ fs_write: only([dir]) });
    const script = "for i in $(seq 10); do sleep 1 & done; wait; echo done";
    const argv = ["bash", "--norc", "--noprofile", "-c", script];
    const runWith = (maxProcesses: number) =>
      createSandbox({
        home: "/nonexistent-home",
        tmpdir: "/tmp",
        backend,
        limits: { maxProcesses },
      }).run(cx, request([argv]), { coverage: NO_COVERAGE });
    const capped = await runWith(6);
    expect(capped).toMatchObject({ kind: "ran", sandboxKind: "landlock" });
    expect(capped.kind === "ran" && capped.result.stderr.toString()).toMatch(/fork/);
    // Control: with room for every child, the same script runs clean.
    const roomy = await runWith(64);
    expect(roomy.kind === "ran" && roomy.result.stderr.toString()).toBe("");
    expect(roomy.kind === "ran" && roomy.result.stdout.toString()).toBe("done\n");
  });

  it("confines writes to fs_write, reports landlock/kernel", async () => {
    const dir = realpathSync(tempDir());
    const inside = join(dir, "work");
    mkdirSync(inside);
    const cx = contextFor({ fs_write: only([inside]) });
    const ok = await sandbox.run(cx, request([["touch", join(inside, "made")]]), {
      coverage: NO_COVERAGE,
    });
    expect(ok).toMatchObject({
      kind: "ran",
      sandboxKind: "landlock",
      report: { fs_write: "kernel" },
    });
    expect(existsSync(join(inside, "made"))).toBe(true);
    const denied = await sandbox.run(cx, request([["touch", join(dir, "outside")]]), {
      coverage: NO_COVERAGE,
    });
    expect(denied.kind === "ran" && denied.result.exitCode).not.toBe(0);
    expect(existsSync(join(dir, "outside"))).toBe(false);
  });

  it("confines reads and exec (runtime closure + execute rules), denies direct sockets", async () => {
    const dir = realpathSync(tempDir());
    writeFileSync(join(dir, "granted.txt"), "granted\n");
    const cx = contextFor({ fs_read: only([dir]), exec: only(["cat", "sh"]), net: only([]) });
    const run = (argv: string[]) => sandbox.run(cx, request([argv]), { coverage: NO_COVERAGE });
    const ok = await run(["cat", join(dir, "granted.txt")]);
    expect(ok).toMatchObject({
      kind: "ran",
      sandboxKind: "landlock",
      report: { fs_read: "kernel", exec: "interceptor", net: "kernel" },
    });
    expect(ok.kind === "ran" && ok.result.stdout.toString()).toBe("granted\n");
    const outside = await run(["cat", "/etc/hostname"]);
    expect(outside.kind === "ran" && outside.result.exitCode).not.toBe(0);
    // sh is granted, but what it execs is bounded by the execute rules.
    const grandchild = await run(["sh", "-c", "/usr/bin/id"]);
    expect(grandchild.kind === "ran" && grandchild.result.exitCode).not.toBe(0);
  });

  it("hides a blocked directory inside a granted root (mount mask)", async () => {
    const dir = realpathSync(tempDir());
    mkdirSync(join(dir, "secret"));
    writeFileSync(join(dir, "secret", "key"), "hidden\n");
    writeFileSync(join(dir, "open.txt"), "visible\n");
    const cx = contextFor(
      { fs_read: only([dir]) },
      { pathPolicy: { blocked: [join(dir, "secret")], writeBlocked: [] } },
    );
    const run = (argv: string[]) => sandbox.run(cx, request([argv]), { coverage: NO_COVERAGE });
    const visible = await run(["cat", join(dir, "open.txt")]);
    expect(visible).toMatchObject({
      kind: "ran",
      sandboxKind: "landlock",
      report: { fs_read: "kernel" },
    });
    expect(visible.kind === "ran" && visible.result.stdout.toString()).toBe("visible\n");
    const hidden = await run(["cat", join(dir, "secret", "key")]);
    expect(hidden.kind === "ran" && hidden.result.stdout.toString()).toBe("");
    const listing = await run(["ls", "-A", join(dir, "secret")]);
    expect(listing.kind === "ran" && listing.result.stdout.toString()).toBe("");
  });

  it("closes every host descriptor not listed", async () => {
    const dir = realpathSync(tempDir());
    const outcome = await sandbox.run(
      contextFor({ fs_write: only([dir]) }),
      request([["ls", "/proc/self/fd"]]),
      { coverage: NO_COVERAGE },
    );
    if (outcome.kind !== "ran") throw new Error(outcome.kind);
    // ls's own directory descriptor is the one extra entry.
    expect(outcome.result.stdout.toString().trim().split("\n")).toEqual(["0", "1", "2", "3"]);
  });

  it("leaves no setsid or double-forked descendant behind after completion (20 runs each)", async () => {
    const dir = realpathSync(tempDir());
    const cx = contextFor({ fs_write: only([dir]) });
    const markers: string[] = [];
    const runs = Array.from({ length: 20 }, (_, index) => {
      const setsid = join(dir, `setsid-${index}`);
      const doubleFork = join(dir, `double-fork-${index}`);
      markers.push(setsid, doubleFork);
      const script = `setsid sh -c 'sleep 2; touch ${setsid}' & (sh -c 'sleep 2; touch ${doubleFork}' &) ; sleep 0.3`;
      return sandbox.run(cx, request([["sh", "-c", script]]), { coverage: NO_COVERAGE });
    });
    for (const outcome of await Promise.all(runs)) expect(outcome.kind).toBe("ran");
    await sleep(3000);
    expect(markers.filter((marker) => existsSync(marker))).toEqual([]);
  });

  it("stops `sleep 30` at a 1 s timeout in under 2 s", async () => {
    const dir = realpathSync(tempDir());
    const started = performance.now();
    const outcome = await sandbox.run(
      contextFor({ fs_write: only([dir]) }),
      request([["sleep", "30"]], { timeoutMs: 1000 }),
      { coverage: NO_COVERAGE },
    );
    expect(performance.now() - started).toBeLessThan(2000);
    expect(outcome.kind === "ran" && outcome.result.timedOut).toBe(true);
  });

  it.skipIf(!existsSync(THP_MODE))(
    "gives an engine's runtime huge pages (hugePages): the fixed tunable, the THP mode read-only; nothing for other spawns",
    async () => {
      const dir = realpathSync(tempDir());
      const cx = contextFor({ fs_read: only([dir]), fs_write: only([dir]) });
      const mode = readFileSync(THP_MODE, "utf8");
      const current = /\[(\w+)\]/.exec(mode)?.[1] ?? "madvise";
      // Writes the mode it already has: were the directory writable, the host would not change.
      const script = `echo "tunables=$GLIBC_TUNABLES"; cat ${THP_MODE} || echo unreadable
echo ${current} > ${THP_MODE} 2>/dev/null && echo written || echo refused`;
      const run = (hugePages: boolean) =>
        sandbox.run(
          cx,
          request([["sh", "-c", script]], {
            cwd: dir,
            hugePages,
            env: { GLIBC_TUNABLES: "glibc.malloc.check=3" },
          }),
          { coverage: NO_COVERAGE },
        );
      const engine = await run(true);
      if (engine.kind !== "ran") throw new Error(engine.kind);
      // The caller's value never reaches the process; the funnel's fixed one does.
      expect(engine.result.stdout.toString()).toBe(
        `tunables=glibc.malloc.hugetlb=1\n${mode}refused\n`,
      );
      const other = await run(false);
      if (other.kind !== "ran") throw new Error(other.kind);
      expect(other.result.stdout.toString()).toBe("tunables=\nunreadable\nrefused\n");
      expect(readFileSync(THP_MODE, "utf8")).toBe(mode);
    },
  );
});
