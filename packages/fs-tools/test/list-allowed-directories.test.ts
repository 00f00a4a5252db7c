// list_allowed_directories (issue 17 point 9): the grant's fs_read roots met with
// FileConfig.allowedPaths, each judged, so it never reveals more than the grant; and the
// attack catalogue's fs entries (§1), one test per entry, sent as the only paths this tool
// takes: the grant's roots and the configured allowed paths. Each asserts the outside (or
// blocked) directory is never named, with a positive control. Not applicable: A18, A20
// (nothing is opened or walked, only judged) and A96 (no path argument, nothing read).
import { closeSync, mkdirSync, openSync, symlinkSync } from "node:fs";
import path from "node:path";
import { ListAllowedDirectoriesToolResultSchema } from "@agent-bridle/core";
import { describe, expect, it } from "vitest";
import { meetDirectories } from "../src/tools/list-allowed-directories-tool.js";
import { createHarness, expectNoCanary, expectResult, withBlocked } from "./helpers/harness.js";
import { makeFifo } from "./helpers/special-files.js";
import { buildTree, useWorkspace } from "./helpers/workspace.js";

const ws = useWorkspace();
const list = async (harness: ReturnType<typeof createHarness>) => {
  const value = await harness.call("list_allowed_directories", {});
  ListAllowedDirectoriesToolResultSchema.parse(value);
  expectNoCanary(value);
  return expectResult(value);
};

describe("list_allowed_directories", () => {
  it("lists the granted roots; the outside directory is never named", async () => {
    const result = await list(createHarness(ws));
    expect(result).toEqual({ directories: [ws.allowed], unrestricted: false });
    expect(JSON.stringify(result)).not.toContain(ws.outside);
  });

  it("meets the grant with allowedPaths: never wider than either", async () => {
    const sub = path.join(ws.allowed, "sub");
    mkdirSync(sub);
    // allowedPaths names a directory inside the grant and one outside it.
    const harness = createHarness(ws, { config: { allowedPaths: [sub, ws.outside] } });
    expect(await list(harness)).toEqual({ directories: [sub], unrestricted: false });
    // Positive control: without allowedPaths the whole granted root is listed.
    expect((await list(createHarness(ws))).directories).toEqual([ws.allowed]);
  });

  it("leaves out a granted root at a blocked location", async () => {
    const harness = createHarness(ws, {
      grant: { fs_read: { only: [ws.allowed, ws.blocked] } },
      config: { blockedPaths: withBlocked(ws.blocked) },
    });
    expect(await list(harness)).toEqual({ directories: [ws.allowed], unrestricted: false });
  });

  it("leaves out an allowed path that is a link inside the grant leading out of it", async () => {
    const link = path.join(ws.allowed, "out");
    symlinkSync(ws.outside, link);
    const harness = createHarness(ws, { config: { allowedPaths: [link] } });
    expect(await list(harness)).toEqual({ directories: [], unrestricted: false });
  });

  it("says unrestricted when neither the grant nor the configuration names directories", async () => {
    const harness = createHarness(ws, { grant: { fs_read: "all" } });
    expect(await list(harness)).toEqual({ directories: [], unrestricted: true });
  });

  it("meetDirectories keeps the deeper entry of each nested pair", () => {
    expect(meetDirectories(["/a", "/b/c"], ["/a/x", "/b"])?.sort()).toEqual(["/a/x", "/b/c"]);
    expect(meetDirectories(undefined, ["/a"])).toEqual(["/a"]);
    expect(meetDirectories(["/a"], ["/ab"])).toEqual([]);
    expect(meetDirectories(undefined, undefined)).toBeUndefined();
  });
});

describe("attack catalogue, fs entries, through list_allowed_directories", () => {
  /** The listing, which must name neither the outside directory nor the blocked one. */
  const listedOnly = async (harness: ReturnType<typeof createHarness>) => {
    const result = await list(harness);
    expect(JSON.stringify(result)).not.toContain(ws.outside);
    return result.directories;
  };

  it("A02: `..` in a configured path never reaches outside the grant", async () => {
    await buildTree(ws.allowed, { "sub/.keep": "" });
    const escaping = createHarness(ws, {
      config: { allowedPaths: [`${ws.allowed}/../outside`, `${ws.allowed}/sub/../../outside`] },
    });
    expect(await listedOnly(escaping)).toEqual([]);
    // positive control: a `..` that stays inside lists the root
    const inside = createHarness(ws, { config: { allowedPaths: [`${ws.allowed}/sub/..`] } });
    expect(await listedOnly(inside)).toEqual([ws.allowed]);
  });

  it("A04: relative entries resolve against the base directory, never the host's working directory", async () => {
    const cwd = process.cwd();
    process.chdir(ws.outside);
    try {
      // A relative grant entry names no directory; a relative allowed path is $A's.
      const harness = createHarness(ws, {
        grant: { fs_read: { only: [".", "secret-dir", ws.allowed] } },
        config: { baseDir: ws.allowed, allowedPaths: ["."] },
      });
      expect(await listedOnly(harness)).toEqual([ws.allowed]);
    } finally {
      process.chdir(cwd);
    }
  });

  it("A06: an allowed path reached through a link out of the grant is left out, at the link or below it", async () => {
    await buildTree(ws.outside, { "sub/.keep": "" });
    await buildTree(ws.allowed, { dirlink: { link: ws.outside } });
    for (const entry of [path.join(ws.allowed, "dirlink"), path.join(ws.allowed, "dirlink/sub")]) {
      const harness = createHarness(ws, { config: { allowedPaths: [entry, ws.allowed] } });
      // positive control in the same listing: the granted root is listed
      expect(await listedOnly(harness), entry).toEqual([ws.allowed]);
    }
  });

  it("A08: `..` after a link in an allowed path is read physically, which is outside the grant (pinned: nothing listed, never the outside parent)", async () => {
    await buildTree(ws.outside, { "inner/.keep": "" });
    await buildTree(ws.allowed, { link: { link: path.join(ws.outside, "inner") } });
    const harness = createHarness(ws, { config: { allowedPaths: [`${ws.allowed}/link/..`] } });
    expect(await listedOnly(harness)).toEqual([]);
    // positive control: a `..` with no link before it is $A
    const plain = createHarness(ws, { config: { allowedPaths: [`${ws.allowed}/blocked/..`] } });
    expect(await listedOnly(plain)).toEqual([ws.allowed]);
  });

  it("A10: a dangling link as an allowed path is left out, before and after its outside target exists", async () => {
    await buildTree(ws.allowed, { dang: { link: path.join(ws.outside, "notyet") } });
    const harness = createHarness(ws, {
      config: { allowedPaths: [path.join(ws.allowed, "dang"), path.join(ws.allowed, "real")] },
    });
    await buildTree(ws.allowed, { "real/.keep": "" });
    expect(await listedOnly(harness)).toEqual([path.join(ws.allowed, "real")]);
    await buildTree(ws.outside, { "notyet/.keep": "" });
    expect(await listedOnly(harness)).toEqual([path.join(ws.allowed, "real")]);
  });

  it("A12: a blocked root is left out under every spelling, even as a more specific grant", async () => {
    await buildTree(ws.blocked, { "sub/.keep": "" });
    const harness = createHarness(ws, {
      grant: {
        fs_read: {
          only: [
            ws.allowed,
            `${ws.allowed}/./blocked`,
            `${ws.allowed}//blocked/`,
            `${ws.allowed}/x/../blocked`,
            path.join(ws.blocked, "sub"),
          ],
        },
      },
      config: { blockedPaths: withBlocked(ws.blocked) },
    });
    const directories = await listedOnly(harness);
    // positive control: the unblocked root is listed
    expect(directories).toEqual([ws.allowed]);
  });

  it("A14: a blocked name is matched without regard to case", async () => {
    await buildTree(ws.allowed, { "private/.keep": "" });
    const harness = createHarness(ws, {
      grant: { fs_read: { only: [ws.allowed, path.join(ws.allowed, "private")] } },
      config: { blockedPaths: withBlocked(path.join(ws.allowed, "Private")) },
    });
    expect(await listedOnly(harness)).toEqual([ws.allowed]);
  });

  it("A16: a root reached through a link is listed as spelled; its blocked part is not, under either spelling", async () => {
    await buildTree(ws.root, {
      "real/blocked/.keep": "",
      alias: { link: path.join(ws.root, "real") },
    });
    const alias = path.join(ws.root, "alias");
    const real = path.join(ws.root, "real");
    const harness = createHarness(ws, {
      grant: {
        fs_read: { only: [alias, path.join(alias, "blocked"), path.join(real, "blocked")] },
      },
      config: { blockedPaths: withBlocked(path.join(alias, "blocked")) },
    });
    expect(await listedOnly(harness)).toEqual([alias]);
  });

  it("A22: the host's descriptor directories and descriptors are never listed", async () => {
    const fd = openSync(path.join(ws.outside, "secret.txt"), "r");
    try {
      const harness = createHarness(ws, {
        grant: {
          fs_read: { only: ["/proc/self/fd", "/dev/fd", `/proc/self/fd/${fd}`, ws.allowed] },
        },
        policy: { blocked: ["/proc", "/dev"], writeBlocked: [] },
      });
      expect(await listedOnly(harness)).toEqual([ws.allowed]);
    } finally {
      closeSync(fd);
    }
  });

  it("A24: a grant root with control characters is not a directory anyone can read: left out", async () => {
    const harness = createHarness(ws, {
      grant: { fs_read: { only: [`${ws.allowed}\u0001`, `${ws.allowed}/ok\u009b`, ws.allowed] } },
    });
    expect(await listedOnly(harness)).toEqual([ws.allowed]);
  });

  it("A26: a FIFO (or a file) as an allowed path is not a directory: left out", async () => {
    makeFifo(path.join(ws.allowed, "pipe"));
    const harness = createHarness(ws, {
      config: {
        allowedPaths: [path.join(ws.allowed, "pipe"), path.join(ws.allowed, "ok.txt"), ws.allowed],
      },
    });
    expect(await listedOnly(harness)).toEqual([ws.allowed]);
  });
});
