import { readFile, rename, symlink } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { judgePath } from "../../src/paths/judge-path.js";
import { openJudgedPath } from "../../src/paths/open-judged-path.js";
import { buildTree, createTempRoot, NO_BLOCKS, removeTempRoot } from "./temp-root.js";

// The window between the component walk and the open cannot be hit on demand, so the
// first walk is made to pass as if the directory were swapped for a link right after it.
const walkState = vi.hoisted(() => ({ skipNext: false }));
vi.mock("../../src/paths/walk-directories.js", async (importOriginal) => {
  const actual = await importOriginal<typeof import("../../src/paths/walk-directories.js")>();
  return {
    ...actual,
    walkDirectories: async (real: string) => {
      if (!walkState.skipNext) return actual.walkDirectories(real);
      walkState.skipNext = false;
      return { ok: true } as const;
    },
  };
});

let root: string;

beforeEach(async () => {
  root = await createTempRoot();
  await buildTree(root, { "allowed/sub/f.txt": "DECOY-IN", "outside/f.txt": "CANARY-OUT" });
});
afterEach(async () => {
  walkState.skipNext = false;
  await removeTempRoot(root);
});

describe.runIf(process.platform !== "win32")(
  "mediated open: directory swapped after the walk",
  () => {
    async function swapAndOpen(name: string, op: "read" | "write") {
      const allowed = path.join(root, "allowed");
      const target = path.join(allowed, "sub", name);
      const decision = await judgePath({
        path: target,
        op,
        scope: { only: [allowed] },
        policy: NO_BLOCKS,
      });
      if (!decision.ok) throw new Error(decision.denial.reason);
      await rename(path.join(allowed, "sub"), path.join(allowed, "sub-old"));
      await symlink(path.join(root, "outside"), path.join(allowed, "sub"));
      walkState.skipNext = true;
      return openJudgedPath(decision.value, { op });
    }

    it("catches an existing file by its inode", async () => {
      const opened = await swapAndOpen("f.txt", "write");
      expect(opened).toMatchObject({ ok: false, denial: { code: "FS_CHANGED_DURING_OPEN" } });
      expect(await readFile(path.join(root, "outside/f.txt"), "utf8")).toBe("CANARY-OUT");
    });

    it("refuses a new file created through the link (the empty file stays: residual)", async () => {
      const opened = await swapAndOpen("new.txt", "write");
      expect(opened).toMatchObject({ ok: false, denial: { code: "FS_SYMLINK_ESCAPE" } });
      expect(await readFile(path.join(root, "outside/new.txt"), "utf8")).toBe("");
    });
  },
);
