// list_allowed_directories (issue 17 point 9): the grant's fs_read roots met with
// FileConfig.allowedPaths, each judged, so it never reveals more than the grant; and the
// attack catalogue's fs entries that apply to a listing of roots (§1: outside the grant,
// a blocked location, a link out of reach).
import { mkdirSync, symlinkSync } from "node:fs";
import path from "node:path";
import { ListAllowedDirectoriesToolResultSchema } from "@agent-bridle/core";
import { describe, expect, it } from "vitest";
import { meetDirectories } from "../src/tools/list-allowed-directories-tool.js";
import { createHarness, expectNoCanary, expectResult, withBlocked } from "./helpers/harness.js";
import { useWorkspace } from "./helpers/workspace.js";

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
