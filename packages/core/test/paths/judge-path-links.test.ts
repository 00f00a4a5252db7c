import { writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type JudgePathRequest, judgePath } from "../../src/paths/judge-path.js";
import { removeDotSegments } from "../../src/paths/remove-dot-segments.js";
import { buildTree, createTempRoot, NO_BLOCKS, removeTempRoot } from "./temp-root.js";

let root: string;
let allowed: string;
let outside: string;

beforeEach(async () => {
  root = await createTempRoot();
  allowed = path.join(root, "allowed");
  outside = path.join(root, "outside");
  await buildTree(root, {
    "allowed/ok.txt": "OK",
    "allowed/secret.txt": "DECOY-IN",
    "allowed/sub/inner/x.txt": "X",
    "outside/secret.txt": "CANARY-OUT",
    "outside/inner": { dir: true },
  });
});
afterEach(async () => removeTempRoot(root));

async function judge(target: string, overrides: Partial<JudgePathRequest> = {}) {
  return judgePath({
    path: target,
    op: "read",
    scope: { only: [allowed] },
    policy: NO_BLOCKS,
    ...overrides,
  });
}

async function codeOf(target: string, overrides: Partial<JudgePathRequest> = {}) {
  const decision = await judge(target, overrides);
  return decision.ok ? "ALLOWED" : decision.denial.code;
}

describe.runIf(process.platform !== "win32")("judgePath: links", () => {
  it("resolves a link in the middle of the path and refuses the escape", async () => {
    await buildTree(root, { "allowed/dirlink": { link: outside } });
    expect(await codeOf(`${allowed}/dirlink/secret.txt`)).toBe("FS_SYMLINK_ESCAPE");
    expect(await codeOf(`${allowed}/dirlink`)).toBe("FS_SYMLINK_ESCAPE");
  });

  it("allows a link whose target is inside, judged at the target", async () => {
    await buildTree(root, { "allowed/inlink": { link: path.join(allowed, "sub") } });
    const decision = await judge(`${allowed}/inlink/inner/x.txt`);
    expect(decision).toMatchObject({
      ok: true,
      value: { real: path.join(allowed, "sub/inner/x.txt"), exists: true },
    });
  });

  it("refuses link/.. when the physical reading leaves and the lexical one stays", async () => {
    await buildTree(root, { "allowed/link": { link: path.join(outside, "inner") } });
    const decision = await judge(`${allowed}/link/../secret.txt`);
    expect(decision.ok).toBe(false);
    if (decision.ok) return;
    expect(decision.denial.code).toBe("FS_SYMLINK_ESCAPE");
    // The physical reading stands outside: the reason says only that a link leads out
    // (which readings disagree would depend on what is there).
    expect(decision.denial.reason).toContain("a symbolic link on the path leads outside");
    expect(decision.denial.reason).not.toContain("CANARY");
  });

  it("refuses link/.. when the lexical reading leaves and the physical one stays", async () => {
    await buildTree(root, {
      "outside/deep/inlink": { link: path.join(allowed, "sub/inner") },
    });
    const scope = { only: [allowed, path.join(outside, "deep")] };
    // physical: allowed/sub/x.txt (inside); lexical: outside/deep/x.txt (inside too).
    expect(await codeOf(`${outside}/deep/inlink/../x.txt`, { scope })).toBe("ALLOWED");
    // Only `allowed` granted: spelled outside (outside/deep/x.txt), refused as any path
    // spelled there is, whatever the link beneath it leads to.
    expect(await codeOf(`${outside}/deep/inlink/../x.txt`)).toBe("FS_OUTSIDE_ALLOWED");
    await buildTree(root, { "allowed/back": { link: path.join(outside, "deep", "inlink") } });
    // physical: allowed/sub/ok.txt (new); lexical: allowed/ok.txt: both inside, but the
    // way there passes outside/deep/inlink, out of sight: whether it comes back depends on
    // what is out there, so it is refused (kernel-boundary.md §1 item 7).
    expect(await codeOf(`${allowed}/back/../ok.txt`)).toBe("FS_SYMLINK_ESCAPE");
  });

  it("agrees with the fs tools once '.' and '..' are removed as text", async () => {
    await buildTree(root, { "allowed/link": { link: path.join(outside, "inner") } });
    const spelled = removeDotSegments(`${allowed}/link/../secret.txt`);
    expect(spelled).toBe(path.join(allowed, "secret.txt"));
    const decision = await judge(spelled);
    expect(decision).toMatchObject({ ok: true, value: { real: spelled } });
  });

  it("allows link/.. when both readings are inside", async () => {
    await buildTree(root, { "allowed/deeplink": { link: path.join(allowed, "sub/inner") } });
    // physical: allowed/sub/ok.txt (missing, new file); lexical: allowed/ok.txt.
    const decision = await judge(`${allowed}/deeplink/../ok.txt`, { op: "write" });
    expect(decision).toMatchObject({
      ok: true,
      value: { real: path.join(allowed, "sub/ok.txt"), absolute: path.join(allowed, "ok.txt") },
    });
  });

  it("refuses a link to outside as an escape whether its target exists or not", async () => {
    // Attack catalogue A10 expected "dangling-link" first; kernel-boundary.md §1 item 7
    // (one answer for an existing and a missing path outside) supersedes that code.
    await buildTree(root, { "allowed/dang": { link: path.join(outside, "notyet.txt") } });
    expect(await codeOf(`${allowed}/dang`)).toBe("FS_SYMLINK_ESCAPE");
    // With nothing outside the scope, a dangling link is told as one.
    expect(await codeOf(`${allowed}/dang`, { op: "write", scope: "all" })).toBe("FS_DANGLING_LINK");
    await writeFile(path.join(outside, "notyet.txt"), "CANARY-OUT");
    expect(await codeOf(`${allowed}/dang`)).toBe("FS_SYMLINK_ESCAPE");
  });

  it("refuses a dangling link in the middle of the path", async () => {
    await buildTree(root, { "allowed/gone": { link: path.join(allowed, "nowhere") } });
    expect(await codeOf(`${allowed}/gone/file.txt`, { op: "write" })).toBe("FS_DANGLING_LINK");
    expect(await codeOf(`${allowed}/gone/../ok.txt`)).toBe("FS_DANGLING_LINK");
  });

  it("refuses a loop of links", async () => {
    await buildTree(root, {
      "allowed/loop1": { link: path.join(allowed, "loop2") },
      "allowed/loop2": { link: path.join(allowed, "loop1") },
    });
    expect(await codeOf(`${allowed}/loop1`)).toBe("FS_LINK_LOOP");
    expect(await codeOf(`${allowed}/loop1/x.txt`, { op: "write" })).toBe("FS_LINK_LOOP");
  });

  it("resolves scope entries reached through a link, and the paths checked against them", async () => {
    await buildTree(root, { alias: { link: allowed } });
    const scope = { only: [path.join(root, "alias")] };
    expect(await codeOf(path.join(root, "alias/ok.txt"), { scope })).toBe("ALLOWED");
    expect(await codeOf(path.join(allowed, "ok.txt"), { scope })).toBe("ALLOWED");
    expect(await codeOf(path.join(outside, "secret.txt"), { scope })).toBe("FS_OUTSIDE_ALLOWED");
  });
});
