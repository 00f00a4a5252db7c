import { chmod } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createPathProbeSelector, type PathProbes } from "../../src/paths/path-probes.js";
import { buildTree, createTempRoot, removeTempRoot } from "./temp-root.js";

const LOCAL_TABLE = "20 1 8:1 / / rw - ext4 /dev/sda1 rw\n21 20 0:5 / /tmp rw - tmpfs tmpfs rw\n";
const NFS_TABLE = `${LOCAL_TABLE}22 20 0:40 / /home rw - nfs4 server:/home rw\n`;

/** A selector over a table the test controls, with a clock the test moves. */
function selectorOver(initial: string) {
  let table: string | Error = initial;
  let clock = 0;
  let reads = 0;
  const selector = createPathProbeSelector({
    readMountTable: async () => {
      reads += 1;
      if (table instanceof Error) throw table;
      return table;
    },
    now: () => clock,
    refreshMs: 1000,
  });
  return {
    selector,
    setTable: (next: string | Error) => {
      table = next;
    },
    advance: (ms: number) => {
      clock += ms;
    },
    reads: () => reads,
  };
}

/** Lets the selector's background read settle. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe("createPathProbeSelector", () => {
  it("uses the thread pool until the mount table is read, then in-process when all local", async () => {
    const { selector, reads } = selectorOver(LOCAL_TABLE);
    expect(selector.probes().mode).toBe("thread-pool");
    await settle();
    expect(selector.probes().mode).toBe("in-process");
    expect(reads()).toBe(1);
    expect(await selector.report()).toEqual({
      mode: "in-process",
      reason: "every mounted file system is local",
    });
  });

  it("stays on the thread pool while a network mount exists, and says which", async () => {
    const { selector } = selectorOver(NFS_TABLE);
    selector.probes();
    await settle();
    expect(selector.probes().mode).toBe("thread-pool");
    expect(await selector.report()).toEqual({
      mode: "thread-pool",
      reason: "/home is a nfs4 mount, whose lookups may block",
    });
  });

  it("re-reads a stale table in the background only, and follows a new mount", async () => {
    const harness = selectorOver(LOCAL_TABLE);
    harness.selector.probes();
    await settle();
    harness.setTable(NFS_TABLE);
    harness.advance(999);
    expect(harness.selector.probes().mode).toBe("in-process");
    expect(harness.reads()).toBe(1);
    harness.advance(1);
    // The stale reading still answers this call; the re-read answers the next ones.
    expect(harness.selector.probes().mode).toBe("in-process");
    await settle();
    expect(harness.reads()).toBe(2);
    expect(harness.selector.probes().mode).toBe("thread-pool");
  });

  it("re-reads when the clock went backwards (a process resumed from a snapshot)", async () => {
    const harness = selectorOver(LOCAL_TABLE);
    harness.advance(5000);
    harness.selector.probes();
    await settle();
    harness.setTable(NFS_TABLE);
    harness.advance(-4990);
    harness.selector.probes();
    await settle();
    expect(harness.reads()).toBe(2);
    expect(harness.selector.probes().mode).toBe("thread-pool");
  });

  it("uses the thread pool when the table cannot be read (no /proc, another OS)", async () => {
    const harness = selectorOver(LOCAL_TABLE);
    harness.setTable(new Error("ENOENT"));
    harness.selector.probes();
    await settle();
    expect(harness.selector.probes().mode).toBe("thread-pool");
    expect((await harness.selector.report()).reason).toMatch(/no mount table/);
  });
});

describe.runIf(process.platform !== "win32")("the two probe sets answer alike", () => {
  let root: string;
  let sets: PathProbes[];
  beforeEach(async () => {
    root = await createTempRoot();
    await buildTree(root, {
      "dir/file": "x",
      "dir/tool": "#!/bin/sh\n",
      "link-to-dir": { link: "dir" },
      dangling: { link: "nowhere" },
    });
    await chmod(path.join(root, "dir/tool"), 0o755);
    const local = selectorOver(LOCAL_TABLE);
    local.selector.probes();
    await settle();
    sets = [local.selector.probes(), selectorOver(NFS_TABLE).selector.probes()];
    expect(sets.map((probes) => probes.mode)).toEqual(["in-process", "thread-pool"]);
  });
  afterEach(async () => removeTempRoot(root));

  const outcome = async (run: () => Promise<unknown>) => {
    try {
      return { value: await run() };
    } catch (error) {
      return { error: (error as NodeJS.ErrnoException).code };
    }
  };

  it("realpath, lstat, stat and executable", async () => {
    const at = (relative: string) => path.join(root, relative);
    const answers = await Promise.all(
      sets.map(async (probes) => ({
        realpath: await outcome(() => probes.realpath(at("link-to-dir/file"))),
        dangling: await outcome(() => probes.realpath(at("dangling"))),
        lstatLink: (await probes.lstat(at("link-to-dir"))).isSymbolicLink(),
        lstatMissing: await outcome(() => probes.lstat(at("missing"))),
        statDir: (await probes.stat(at("link-to-dir")))?.isDirectory(),
        statMissing: await probes.stat(at("missing/deeper")),
        statUnderFile: await probes.stat(at("dir/file/under")),
        executable: await probes.executable(at("dir/tool")),
        notExecutable: await probes.executable(at("dir/file")),
      })),
    );
    expect(answers[0]).toEqual({
      realpath: { value: at("dir/file") },
      dangling: { error: "ENOENT" },
      lstatLink: true,
      lstatMissing: { error: "ENOENT" },
      statDir: true,
      statMissing: undefined,
      statUnderFile: undefined,
      executable: true,
      notExecutable: false,
    });
    expect(answers[1]).toEqual(answers[0]);
  });
});
