import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { checkBlocked } from "../../src/paths/blocked-match.js";
import { judgePath } from "../../src/paths/judge-path.js";
import { defaultPathPolicy } from "../../src/paths/path-policy.js";
import { buildTree, createTempRoot, removeTempRoot } from "./temp-root.js";

// Files in git's own directory whose content makes git run code, or look for its
// configuration, hooks or objects in another directory, at the user's next git command.
// They are invisible to review (`git diff` never shows them), so writes are refused.
const INDIRECTIONS = [
  "/w/.git/config",
  "/w/.git/config.worktree",
  "/w/.git/hooks/pre-commit",
  "/w/.git/commondir",
  "/w/.git/gitdir",
  "/w/.git/info/attributes",
  "/w/.git/info/exclude",
  "/w/.git/objects/info/alternates",
  "/w/.git/objects/info/http-alternates",
  "/w/.git/worktrees/feature/commondir",
  "/w/.git/worktrees/feature/gitdir",
  "/w/.git/worktrees/feature/config",
  "/w/.git/worktrees/feature/config.worktree",
  "/w/.git/modules/lib/config",
  "/w/.git/modules/lib/config.worktree",
  "/w/.git/modules/lib/hooks/post-checkout",
  "/w/.git/modules/lib/commondir",
  "/w/.git/modules/lib/info/attributes",
  "/w/.git/modules/lib/objects/info/alternates",
  "/w/.git/modules/nested/deeper/worktrees/x/commondir",
  "/w/.GIT/CommonDir",
];

// What git writes in ordinary work, and tracked project files: not blocked.
const ORDINARY = [
  "/w/.git/HEAD",
  "/w/.git/index",
  "/w/.git/COMMIT_EDITMSG",
  "/w/.git/objects/ab/cdef0123",
  "/w/.git/refs/heads/main",
  "/w/.git/worktrees/feature/HEAD",
  "/w/.git/worktrees/feature/index",
  "/w/.git/modules/lib/HEAD",
  "/w/.gitmodules",
  "/w/.gitattributes",
  "/w/.gitignore",
  "/w/src/config",
  "/w/src/info/readme.md",
];

describe("defaultPathPolicy: git's indirection files are write-blocked", () => {
  const policy = defaultPathPolicy({ platform: "linux", home: "/home/u" });

  it.each(INDIRECTIONS)("blocks writing %s, not reading it", (target) => {
    expect(checkBlocked(policy, target, "write").blocked).toBe(true);
    expect(checkBlocked(policy, target, "read").blocked).toBe(false);
  });

  it.each(ORDINARY)("leaves %s writable", (target) => {
    expect(checkBlocked(policy, target, "write").blocked).toBe(false);
  });
});

describe.runIf(process.platform !== "win32")("judgePath: a `.git` file is never written", () => {
  let root: string;
  beforeEach(async () => {
    root = await createTempRoot();
    await buildTree(root, {
      "repo/.git/HEAD": "ref: refs/heads/main\n",
      "worktree/.git": "gitdir: ../repo/.git/worktrees/feature\n",
      "worktree/src.txt": "source",
    });
  });
  afterEach(async () => removeTempRoot(root));

  const write = (target: string) =>
    judgePath({
      path: target,
      op: "write",
      scope: { only: [root] },
      policy: defaultPathPolicy({ platform: "linux", home: "/home/u" }),
    });

  it("refuses writing an existing `.git` file, a new one and one spelled another way", async () => {
    for (const target of ["worktree/.git", "fresh/.git", "worktree/.GIT", "worktree/.git."]) {
      const decision = await write(path.join(root, target));
      expect(decision, target).toMatchObject({ ok: false, denial: { code: "FS_BLOCKED" } });
    }
    // The `.git` directory itself cannot be written as a file either way.
    expect(await write(path.join(root, "repo/.git"))).toMatchObject({ ok: false });
  });

  it("refuses a write through a link whose real location is a `.git` file", async () => {
    await buildTree(root, { "worktree/alias": { link: path.join(root, "worktree/.git") } });
    const decision = await write(path.join(root, "worktree/alias"));
    expect(decision).toMatchObject({ ok: false, denial: { code: "FS_BLOCKED" } });
  });

  it("positive control: files beside and beneath `.git` stay writable, and `.git` readable", async () => {
    expect((await write(path.join(root, "worktree/src.txt"))).ok).toBe(true);
    expect((await write(path.join(root, "repo/.git/HEAD"))).ok).toBe(true);
    expect((await write(path.join(root, "worktree/.github"))).ok).toBe(true);
    const read = await judgePath({
      path: path.join(root, "worktree/.git"),
      op: "read",
      scope: { only: [root] },
      policy: defaultPathPolicy({ platform: "linux", home: "/home/u" }),
    });
    expect(read.ok).toBe(true);
  });
});
