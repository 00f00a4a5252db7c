import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type JudgePathRequest, judgePath } from "../../src/paths/judge-path.js";
import { buildTree, createTempRoot, NO_BLOCKS, removeTempRoot } from "./temp-root.js";

let root: string;

beforeEach(async () => {
  root = await createTempRoot();
  await buildTree(root, { "allowed/ok.txt": "OK", "outside/secret.txt": "CANARY-OUT" });
});
afterEach(async () => removeTempRoot(root));

function request(overrides: Partial<JudgePathRequest>): JudgePathRequest {
  const scope = { only: [path.join(root, "allowed")] };
  return { path: "", op: "read", scope, policy: NO_BLOCKS, ...overrides };
}

async function codeOf(overrides: Partial<JudgePathRequest>): Promise<string> {
  const decision = await judgePath(request(overrides));
  return decision.ok ? "ALLOWED" : decision.denial.code;
}

describe.runIf(process.platform !== "win32")("judgePath: text and base directory", () => {
  it.each(["", "ok.txt\u0000/../../outside/secret.txt", "ok\u0001.txt", "a\nb"])(
    "refuses %j as an invalid path before any resolution",
    async (text) => {
      const decision = await judgePath(
        request({ path: text, baseDir: path.join(root, "allowed") }),
      );
      expect(decision.ok).toBe(false);
      if (decision.ok) return;
      expect(decision.denial).toMatchObject({
        kind: "open",
        target: text,
        code: "FS_INVALID_PATH",
      });
      expect(decision.denial.reason).toMatch(
        /^denied: read of ".*": the path is empty or contains/,
      );
    },
  );

  it("resolves a relative path against an explicit base directory only", async () => {
    const decision = await judgePath(
      request({ path: "ok.txt", baseDir: path.join(root, "allowed") }),
    );
    expect(decision).toMatchObject({
      ok: true,
      value: {
        requested: "ok.txt",
        absolute: path.join(root, "allowed/ok.txt"),
        real: path.join(root, "allowed/ok.txt"),
        root: path.join(root, "allowed"),
        exists: true,
        directory: false,
      },
    });
  });

  it("says whether the real location is a directory, from the judge's own lookup", async () => {
    await buildTree(root, { "allowed/sub": { dir: true }, "allowed/to-sub": { link: "sub" } });
    const directoryOf = async (relative: string) => {
      const decision = await judgePath(request({ path: path.join(root, "allowed", relative) }));
      return decision.ok ? decision.value.directory : decision.denial.code;
    };
    expect(await directoryOf("sub")).toBe(true);
    expect(await directoryOf("to-sub")).toBe(true);
    expect(await directoryOf("ok.txt")).toBe(false);
    expect(await directoryOf("new.txt")).toBe(false);
  });

  it("refuses a relative path without a base directory (never the process cwd)", async () => {
    expect(await codeOf({ path: "ok.txt" })).toBe("FS_NO_BASE_DIR");
    expect(await codeOf({ path: "ok.txt", baseDir: "relative/base" })).toBe("FS_NO_BASE_DIR");
    expect(await codeOf({ path: "." })).toBe("FS_NO_BASE_DIR");
  });

  it("judges a base-relative '..' that leaves the area as outside", async () => {
    const baseDir = path.join(root, "allowed");
    expect(await codeOf({ path: "../outside/secret.txt", baseDir })).toBe("FS_OUTSIDE_ALLOWED");
    expect(await codeOf({ path: "..", baseDir })).toBe("FS_OUTSIDE_ALLOWED");
  });
});

describe.runIf(process.platform !== "win32")("judgePath: containment", () => {
  it("contains by components: data allows data/x, not data-secret/x", async () => {
    await buildTree(root, { "data/x": "X", "data-secret/x": "S" });
    const scope = { only: [path.join(root, "data")] };
    expect(await codeOf({ scope, path: path.join(root, "data/x") })).toBe("ALLOWED");
    expect(await codeOf({ scope, path: path.join(root, "data") })).toBe("ALLOWED");
    expect(await codeOf({ scope, path: path.join(root, "data-secret/x") })).toBe(
      "FS_OUTSIDE_ALLOWED",
    );
  });

  it("refuses a plain '..' traversal and an absolute path outside", async () => {
    const allowed = path.join(root, "allowed");
    expect(await codeOf({ path: `${allowed}/../outside/secret.txt` })).toBe("FS_OUTSIDE_ALLOWED");
    expect(await codeOf({ path: path.join(root, "outside/secret.txt") })).toBe(
      "FS_OUTSIDE_ALLOWED",
    );
  });

  it("names the path and the violated scope in the reason, not where it really is", async () => {
    // Outside the scope the real location would tell what is there (kernel-boundary.md
    // §1 item 7), so the reason names the path as requested only.
    const target = path.join(root, "outside/secret.txt");
    const decision = await judgePath(request({ path: target }));
    expect(decision.ok).toBe(false);
    if (decision.ok) return;
    expect(decision.denial.reason).toBe(
      `denied: read of ${JSON.stringify(target)}: it is not within the granted fs_read scope; use a path inside it`,
    );
    expect(decision.denial.reason).not.toContain("CANARY");
  });

  it("checks the scope, then the tool's allowed paths", async () => {
    const target = path.join(root, "allowed/ok.txt");
    const elsewhere = [path.join(root, "outside")];
    const decision = await judgePath(request({ path: target, allowed: elsewhere }));
    expect(decision.ok).toBe(false);
    if (decision.ok) return;
    expect(decision.denial.code).toBe("FS_OUTSIDE_ALLOWED");
    expect(decision.denial.reason).toContain("tool's allowed paths");
    expect(await codeOf({ path: target, allowed: [] })).toBe("FS_OUTSIDE_ALLOWED");
    expect(await codeOf({ path: target, allowed: [root] })).toBe("ALLOWED");
  });

  it("reports the outermost matching entry as root, and no root when unrestricted", async () => {
    const target = path.join(root, "allowed/ok.txt");
    const both = await judgePath(request({ path: target, allowed: [root] }));
    expect(both.ok && both.value.root).toBe(root);
    const unrestricted = await judgePath(request({ path: target, scope: "all" }));
    expect(unrestricted.ok && unrestricted.value.root).toBeUndefined();
  });

  it("lets entries that cannot be resolved authorise nothing", async () => {
    await buildTree(root, { "allowed/dang": { link: path.join(root, "missing") } });
    const scope = { only: ["relative/entry", path.join(root, "allowed/dang"), ""] };
    expect(await codeOf({ scope, path: path.join(root, "allowed/ok.txt") })).toBe(
      "FS_OUTSIDE_ALLOWED",
    );
  });

  it("judges a new file by its deepest existing ancestor", async () => {
    const target = path.join(root, "allowed/new/deeper/file.txt");
    const decision = await judgePath(request({ path: target, op: "write" }));
    expect(decision).toMatchObject({ ok: true, value: { real: target, exists: false } });
    expect(decision.ok && decision.value.identity).toBeUndefined();
  });

  it("refuses '.' or '..' after a missing component (cannot resolve)", async () => {
    const target = `${path.join(root, "allowed")}/missing/../ok.txt`;
    expect(await codeOf({ path: target })).toBe("FS_CANNOT_RESOLVE");
  });

  it("refuses an over-long name or path", async () => {
    const longName = path.join(root, "allowed", "n".repeat(300));
    expect(await codeOf({ path: longName })).toBe("FS_PATH_TOO_LONG");
    expect(await codeOf({ path: `/${"a".repeat(40_000)}` })).toBe("FS_PATH_TOO_LONG");
  });

  it("fails closed on an unexpected exception", async () => {
    const hostile = { only: null } as unknown as JudgePathRequest["scope"];
    const decision = await judgePath(
      request({ path: path.join(root, "allowed/ok.txt"), scope: hostile }),
    );
    expect(decision.ok).toBe(false);
    if (!decision.ok) expect(decision.denial.code).toBe("FS_CANNOT_RESOLVE");
  });
});
