import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createEntryResolver } from "../../src/paths/entry-real-location.js";
import { buildTree, createTempRoot, removeTempRoot } from "./temp-root.js";

let root: string;

beforeEach(async () => {
  root = await createTempRoot();
  await buildTree(root, {
    "real/.aws": { dir: true },
    "real/.netrc": "secret",
    elsewhere: { dir: true },
    home: { link: "real" },
    "real/.kube": { link: "../elsewhere" },
    "real/.dangling": { link: "nowhere" },
    "real/loop": { link: "loop" },
  });
});
afterEach(async () => removeTempRoot(root));

describe.runIf(process.platform !== "win32")("createEntryResolver", () => {
  it("places every entry where it really is, through a linked home", () => {
    const realLocation = createEntryResolver();
    const at = (relative: string) => path.join(root, relative);
    expect(realLocation(at("home/.aws"))).toBe(at("real/.aws"));
    expect(realLocation(at("home/.netrc"))).toBe(at("real/.netrc"));
    expect(realLocation(at("home/.kube"))).toBe(at("elsewhere"));
    expect(realLocation(at("home/.kube/config"))).toBe(at("elsewhere/config"));
    // Missing: the deepest existing ancestor's real location, the tail re-appended.
    expect(realLocation(at("home/.ssh"))).toBe(at("real/.ssh"));
    expect(realLocation(at("home/.config/gh"))).toBe(at("real/.config/gh"));
    // A dangling link stays where it is, and so does what would be beneath it.
    expect(realLocation(at("home/.dangling"))).toBe(at("real/.dangling"));
    expect(realLocation(at("home/.dangling/x"))).toBe(at("real/.dangling/x"));
    expect(realLocation(`${at("home/.aws")}/`)).toBe(at("real/.aws"));
    expect(realLocation("/")).toBe("/");
  });

  it("cannot place a looping link or a missing entry spelled with '..'", () => {
    const realLocation = createEntryResolver();
    expect(realLocation(path.join(root, "home/loop"))).toBeUndefined();
    expect(realLocation(path.join(root, "home/loop/x"))).toBeUndefined();
    // Spelled with `..` (no normalising join): read physically, as the kernel would.
    expect(realLocation(`${root}/home/missing/../x`)).toBeUndefined();
    expect(realLocation(`${root}/home/.kube/../real`)).toBe(path.join(root, "real"));
  });

  it("agrees with the kernel's realpath for every existing entry", async () => {
    const { realpathSync } = await import("node:fs");
    const realLocation = createEntryResolver();
    for (const relative of ["home", "home/.aws", "home/.kube", "real/.netrc", "elsewhere"]) {
      const entry = path.join(root, relative);
      expect(realLocation(entry)).toBe(realpathSync.native(entry));
    }
  });
});
