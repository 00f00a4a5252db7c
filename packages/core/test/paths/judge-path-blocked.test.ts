import { mkdir } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type JudgePathRequest, judgePath } from "../../src/paths/judge-path.js";
import { defaultPathPolicy, type PathPolicy } from "../../src/paths/path-policy.js";
import { removeDotSegments } from "../../src/paths/remove-dot-segments.js";
import { isResolvedPathPolicy, resolvePathPolicy } from "../../src/paths/resolve-path-policy.js";
import { buildTree, createTempRoot, removeTempRoot } from "./temp-root.js";

let root: string;
let allowed: string;

beforeEach(async () => {
  root = await createTempRoot();
  allowed = path.join(root, "allowed");
  await buildTree(root, {
    "allowed/ok.txt": "OK",
    "allowed/blocked/key.txt": "CANARY-BLK",
    "allowed/blocked/sub/k.txt": "CANARY-BLK",
  });
});
afterEach(async () => removeTempRoot(root));

function policyOf(blocked: string[], writeBlocked: string[] = []): PathPolicy {
  return { blocked, writeBlocked };
}

async function codeOf(target: string, overrides: Partial<JudgePathRequest>) {
  const decision = await judgePath({
    path: target,
    op: "read",
    scope: { only: [allowed] },
    policy: policyOf([]),
    ...overrides,
  });
  return decision.ok ? "ALLOWED" : decision.denial.code;
}

describe.runIf(process.platform !== "win32")("judgePath: blocked entries", () => {
  it("lets blocked win over every spelling and every allow", async () => {
    const blockedDir = path.join(allowed, "blocked");
    const overrides = {
      policy: policyOf([blockedDir]),
      allowed: [allowed, path.join(blockedDir, "sub")],
    };
    for (const target of [
      `${blockedDir}/key.txt`,
      `${allowed}/./blocked/key.txt`,
      `${allowed}//blocked/key.txt`,
      `${blockedDir}/sub/k.txt`,
      `${blockedDir}/`,
      removeDotSegments(`${allowed}/x/../blocked/key.txt`),
    ]) {
      expect(await codeOf(target, overrides), target).toBe("FS_BLOCKED");
    }
    expect(await codeOf(`${allowed}/x/../blocked/key.txt`, overrides)).not.toBe("ALLOWED");
    expect(await codeOf(`${allowed}/ok.txt`, overrides)).toBe("ALLOWED");
  });

  it("matches without regard to case", async () => {
    await buildTree(root, { "allowed/secret/key.txt": "CANARY-BLK" });
    const policy = policyOf([path.join(allowed, "Secret")]);
    expect(await codeOf(`${allowed}/secret/key.txt`, { policy })).toBe("FS_BLOCKED");
    expect(await codeOf(`${allowed}/SECRET/key.txt`, { policy, op: "write" })).toBe("FS_BLOCKED");
  });

  it("matches without regard to Unicode normalisation", async () => {
    const nfc = "caf\u00e9";
    const nfd = "cafe\u0301";
    await mkdir(path.join(allowed, nfd));
    expect(
      await codeOf(path.join(allowed, nfd, "x"), { policy: policyOf([path.join(allowed, nfc)]) }),
    ).toBe("FS_BLOCKED");
    expect(
      await codeOf(path.join(allowed, nfc, "x"), { policy: policyOf([path.join(allowed, nfd)]) }),
    ).toBe("FS_BLOCKED");
  });

  it("blocks **/ patterns anywhere, write-only patterns for writes only", async () => {
    await buildTree(root, {
      "allowed/.ssh/id_ed25519": "KEY",
      "allowed/.git/hooks/pre-commit.sample": "#!/bin/sh",
    });
    const policy = policyOf(["**/.ssh"], ["**/.git/hooks/**"]);
    expect(await codeOf(`${allowed}/.ssh/id_ed25519`, { policy })).toBe("FS_BLOCKED");
    const hook = `${allowed}/.git/hooks/pre-commit.sample`;
    expect(await codeOf(hook, { policy })).toBe("ALLOWED");
    expect(await codeOf(hook, { policy, op: "write" })).toBe("FS_BLOCKED");
    expect(await codeOf(`${allowed}/.git/hooks/pre-commit`, { policy, op: "write" })).toBe(
      "FS_BLOCKED",
    );
    expect(await codeOf(`${allowed}/.GIT/Hooks/pre-commit`, { policy, op: "write" })).toBe(
      "FS_BLOCKED",
    );
  });

  it("blocks by real location: a link into a blocked directory, a blocked entry behind a link", async () => {
    await buildTree(root, {
      "allowed/keys": { link: path.join(allowed, "blocked") },
      real: { dir: true },
      "real/ok.txt": "OK",
      "real/blocked/key.txt": "CANARY-BLK",
      alias: { link: path.join(root, "real") },
    });
    const blockedDir = policyOf([path.join(allowed, "blocked")]);
    expect(await codeOf(`${allowed}/keys/key.txt`, { policy: blockedDir })).toBe("FS_BLOCKED");
    const aliased = {
      scope: { only: [path.join(root, "alias")] },
      policy: policyOf([`${root}/alias/blocked`]),
    };
    expect(await codeOf(`${root}/alias/ok.txt`, aliased)).toBe("ALLOWED");
    expect(await codeOf(`${root}/real/ok.txt`, aliased)).toBe("ALLOWED");
    expect(await codeOf(`${root}/real/blocked/key.txt`, aliased)).toBe("FS_BLOCKED");
    expect(await codeOf(`${root}/alias/blocked/key.txt`, aliased)).toBe("FS_BLOCKED");
  });

  it("resolves a policy once and reuses it", async () => {
    await buildTree(root, { alias: { link: allowed } });
    const resolved = await resolvePathPolicy(policyOf([`${root}/alias/blocked`], ["**/.mcp.json"]));
    expect(resolved.blocked).toEqual([`${root}/alias/blocked`, `${allowed}/blocked`]);
    expect(resolved.writeBlocked).toEqual(["**/.mcp.json"]);
    expect(isResolvedPathPolicy(resolved)).toBe(true);
    expect(await resolvePathPolicy(resolved)).toBe(resolved);
    expect(await codeOf(`${allowed}/blocked/key.txt`, { policy: resolved })).toBe("FS_BLOCKED");
  });

  it("names the blocked entry in a reason that never echoes contents", async () => {
    const target = `${allowed}/blocked/key.txt`;
    const decision = await judgePath({
      path: target,
      op: "read",
      scope: "all",
      policy: policyOf([path.join(allowed, "blocked")]),
    });
    expect(decision.ok).toBe(false);
    if (decision.ok) return;
    expect(decision.denial.code).toBe("FS_BLOCKED");
    expect(decision.denial.reason).toContain("blocked location");
    expect(decision.denial.reason).not.toContain("CANARY");
  });
});

describe.runIf(process.platform === "linux")("judgePath: default policy on Linux", () => {
  const policy = defaultPathPolicy({ platform: "linux", home: "/home/nobody-here" });

  it("blocks system locations even under an unrestricted scope", async () => {
    expect(await codeOf("/etc/shadow", { scope: "all", policy })).toBe("FS_BLOCKED");
    expect(await codeOf("/ETC/../etc/hostname", { scope: "all", policy })).not.toBe("ALLOWED");
    expect(await codeOf("/proc/self/environ", { scope: "all", policy })).toBe("FS_BLOCKED");
    expect(await codeOf("/proc/self/fd/0", { scope: "all", policy })).not.toBe("ALLOWED");
    expect(await codeOf("/dev/stdin", { scope: "all", policy })).not.toBe("ALLOWED");
  });

  it("leaves an ordinary file alone", async () => {
    expect(await codeOf(`${allowed}/ok.txt`, { scope: "all", policy })).toBe("ALLOWED");
  });
});
