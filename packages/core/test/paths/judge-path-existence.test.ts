import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type JudgePathRequest, judgePath } from "../../src/paths/judge-path.js";
import type { PathPolicy } from "../../src/paths/path-policy.js";
import { buildTree, createTempRoot, NO_BLOCKS, removeTempRoot } from "./temp-root.js";

// kernel-boundary.md §1 item 7: an answer that differs between an existing and a
// missing path outside the grant (or in a blocked location) is a leak. Each table below
// names one place several ways (an existing file, an existing directory, a dangling
// link, a loop, nothing at all); the judge must answer them all alike.

let root: string;
let allowed: string;
let outside: string;
let vault: string;

/** Names under `outside/` and `vault/`: each kind of thing, and nothing. */
const VARIANTS = ["present", "folder", "dangling", "loop", "missing"] as const;

beforeEach(async () => {
  root = await createTempRoot();
  allowed = path.join(root, "allowed");
  outside = path.join(root, "outside");
  vault = path.join(allowed, "vault");
  const kinds = (base: string) => ({
    [`${base}/present`]: "CANARY-OUT",
    [`${base}/folder/inner`]: "CANARY-OUT",
    [`${base}/dangling`]: { link: path.join(root, "nowhere", "at-all") },
    [`${base}/loop`]: { link: path.join(root, base, "loop-back") },
    [`${base}/loop-back`]: { link: path.join(root, base, "loop") },
  });
  await buildTree(root, {
    "allowed/ok.txt": "OK",
    "allowed/sub/x.txt": "X",
    ...kinds("outside"),
    ...kinds("allowed/vault"),
  });
  // Links planted in the grant, one to each variant.
  for (const name of VARIANTS) {
    await buildTree(allowed, {
      [`to-${name}`]: { link: path.join(outside, name) },
      [`to-vault-${name}`]: { link: path.join(vault, name) },
    });
  }
});
afterEach(async () => removeTempRoot(root));

const VAULT_POLICY = (): PathPolicy => ({ blocked: [vault], writeBlocked: [] });

async function answer(target: string, overrides: Partial<JudgePathRequest>) {
  const decision = await judgePath({
    path: target,
    op: "read",
    scope: { only: [allowed] },
    policy: NO_BLOCKS,
    ...overrides,
  });
  return decision.ok ? "ALLOWED" : decision.denial;
}

/** The answers for every variant, with the variant's name replaced so they can be compared. */
async function answers(spelling: (name: string) => string, overrides: Partial<JudgePathRequest>) {
  const seen = new Map<string, unknown>();
  for (const name of VARIANTS) {
    const value = await answer(spelling(name), overrides);
    seen.set(name, JSON.parse(JSON.stringify(value).replaceAll(name, "NAME")));
  }
  return seen;
}

function expectAlike(seen: Map<string, unknown>, code: string) {
  const first = seen.get("missing");
  expect(first).toMatchObject({ code });
  for (const [name, value] of seen) expect(value, name).toEqual(first);
}

const SPELLINGS = {
  "the name": (base: string) => (name: string) => `${base}/${name}`,
  "a name beneath it": (base: string) => (name: string) => `${base}/${name}/child`,
  "'..' after it": (base: string) => (name: string) => `${base}/${name}/../sibling`,
};

describe.runIf(process.platform !== "win32")(
  "judgePath: the same answer whether a path out of sight exists or not",
  () => {
    for (const op of ["read", "write"] as const) {
      for (const [label, spelling] of Object.entries(SPELLINGS)) {
        it(`${op}: outside the scope, ${label}: FS_OUTSIDE_ALLOWED for every variant`, async () => {
          expectAlike(await answers(spelling(outside), { op }), "FS_OUTSIDE_ALLOWED");
        });

        it(`${op}: through a link in the scope to outside, ${label}: FS_SYMLINK_ESCAPE for every variant`, async () => {
          const seen = await answers((name) => spelling(allowed)(`to-${name}`), { op });
          expectAlike(seen, "FS_SYMLINK_ESCAPE");
        });

        it(`${op}: in a blocked directory under fs_read "all", ${label}: FS_BLOCKED for every variant`, async () => {
          const overrides = { op, scope: "all" as const, policy: VAULT_POLICY() };
          expectAlike(await answers(spelling(vault), overrides), "FS_BLOCKED");
        });

        it(`${op}: through a link to a blocked directory, ${label}: FS_BLOCKED for every variant`, async () => {
          const overrides = { op, scope: "all" as const, policy: VAULT_POLICY() };
          const seen = await answers((name) => spelling(allowed)(`to-vault-${name}`), overrides);
          expectAlike(seen, "FS_BLOCKED");
        });
      }
    }

    it("names no real location outside the scope in a denial", async () => {
      for (const name of VARIANTS) {
        const value = await answer(path.join(allowed, `to-${name}`, "child"), {});
        expect(JSON.stringify(value), name).not.toContain("resolved");
        const direct = await answer(path.join(outside, name, "child"), {});
        expect(JSON.stringify(direct), name).not.toContain("resolved");
      }
    });

    it("leaves '..' back into the scope through an outside directory refused, existing or not", async () => {
      // allowed/to-folder/../../allowed/ok.txt reads outside/folder physically, then comes back.
      for (const name of VARIANTS) {
        const back = `${allowed}/to-${name}/../../allowed/ok.txt`;
        expect(await answer(back, {}), name).toMatchObject({ code: "FS_SYMLINK_ESCAPE" });
      }
    });

    it("positive controls: paths in sight keep their own answers", async () => {
      await buildTree(allowed, {
        "in-dangling": { link: path.join(allowed, "nowhere") },
        "in-loop": { link: path.join(allowed, "in-loop-back") },
        "in-loop-back": { link: path.join(allowed, "in-loop") },
        "in-link": { link: path.join(allowed, "sub") },
      });
      expect(await answer(path.join(allowed, "ok.txt"), {})).toBe("ALLOWED");
      expect(await answer(path.join(allowed, "new.txt"), { op: "write" })).toBe("ALLOWED");
      expect(await answer(path.join(allowed, "in-link", "x.txt"), {})).toBe("ALLOWED");
      expect(await answer(`${allowed}/in-link/../ok.txt`, {})).toBe("ALLOWED");
      expect(await answer(path.join(allowed, "in-dangling"), {})).toMatchObject({
        code: "FS_DANGLING_LINK",
      });
      expect(await answer(path.join(allowed, "in-loop"), {})).toMatchObject({
        code: "FS_LINK_LOOP",
      });
      // Under fs_read "all" nothing is outside: a dangling link is a dangling link.
      expect(await answer(path.join(outside, "dangling"), { scope: "all" })).toMatchObject({
        code: "FS_DANGLING_LINK",
      });
    });
  },
);
