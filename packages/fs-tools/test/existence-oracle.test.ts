import path from "node:path";
import { describe, expect, it } from "vitest";
import { createHarness, expectNoCanary, withBlocked } from "./helpers/harness.js";
import { buildTree, useWorkspace } from "./helpers/workspace.js";

// kernel-boundary.md §1 item 7: every tool answers a path outside its reach (outside the
// grant, or blocked) the same way whether something is there or not. Each kind of thing
// sits at the same name; the answers, with the name replaced, must be alike.

const VARIANTS = ["present", "folder", "dangling", "loop", "missing"] as const;

function kinds(base: string, elsewhere: string) {
  return {
    [`${base}/present`]: "CANARY-OUT",
    [`${base}/folder/inner`]: "CANARY-OUT",
    [`${base}/dangling`]: { link: path.join(elsewhere, "nowhere") },
    [`${base}/loop`]: { link: path.join(elsewhere, base, "loop-back") },
    [`${base}/loop-back`]: { link: path.join(elsewhere, base, "loop") },
  };
}

const ws = useWorkspace();

const CALLS = [
  ["read_file", (target: string) => ({ path: target })],
  ["read_file", (target: string) => ({ path: `${target}/inner` })],
  ["list_directory", (target: string) => ({ path: target })],
  ["file_info", (target: string) => ({ path: target })],
  ["file_info", (target: string) => ({ path: `${target}/inner` })],
  ["write_file", (target: string) => ({ path: target, content: "X" })],
  ["write_file", (target: string) => ({ path: `${target}/new.txt`, content: "X" })],
  ["write_file", (target: string) => ({ path: target, content: "X", mode: "append" })],
] as const;

async function expectAlike(
  call: (tool: string, args: unknown) => Promise<unknown>,
  tool: string,
  args: (target: string) => unknown,
  target: (name: string) => string,
) {
  const seen = new Map<string, unknown>();
  for (const name of VARIANTS) {
    const value = (await call(tool, args(target(name)))) as Record<string, unknown>;
    expectNoCanary(value);
    const { elapsed_ms: _elapsed, ...rest } = value;
    seen.set(name, JSON.parse(JSON.stringify(rest).replaceAll(name, "NAME")));
  }
  const first = seen.get("missing");
  expect(first).toMatchObject({ denied: true });
  for (const [name, value] of seen) expect(value, name).toEqual(first);
}

describe.each([true, false])(
  "fs tools (followSymlinks %s): one answer for a path out of reach, existing or not",
  (followSymlinks) => {
    const config = { followSymlinks };

    it.each(CALLS)("%s outside the grant", async (tool, args) => {
      await buildTree(ws.root, kinds("outside", ws.root));
      const { call } = createHarness(ws, { config });
      await expectAlike(call, tool, args, (name) => path.join(ws.outside, name));
    });

    it.each(CALLS)("%s through a link in the grant to outside", async (tool, args) => {
      await buildTree(ws.root, kinds("outside", ws.root));
      for (const name of VARIANTS) {
        await buildTree(ws.allowed, { [`to-${name}`]: { link: path.join(ws.outside, name) } });
      }
      const { call } = createHarness(ws, { config });
      await expectAlike(call, tool, args, (name) => path.join(ws.allowed, `to-${name}`));
    });

    it.each(CALLS)(
      '%s in a blocked directory under fs_read and fs_write "all"',
      async (tool, args) => {
        await buildTree(ws.root, kinds("allowed/blocked", ws.root));
        const { call } = createHarness(ws, {
          grant: { fs_read: "all", fs_write: "all" },
          config: { ...config, blockedPaths: withBlocked(ws.blocked) },
        });
        await expectAlike(call, tool, args, (name) => path.join(ws.blocked, name));
      },
    );

    it("positive control: inside the grant a missing file and a dangling link are told apart", async () => {
      await buildTree(ws.allowed, { "in-dangling": { link: path.join(ws.allowed, "nowhere") } });
      const { call } = createHarness(ws, { config });
      const missing = (await call("read_file", { path: path.join(ws.allowed, "absent") })) as {
        denials?: { code: string }[];
      };
      const dangling = (await call("read_file", {
        path: path.join(ws.allowed, "in-dangling"),
      })) as {
        denials?: { code: string }[];
      };
      expect(missing.denials?.[0]?.code).toBe("FS_NOT_FOUND");
      expect(dangling.denials?.[0]?.code).toBe("FS_DANGLING_LINK");
      const ok = (await call("read_file", { path: path.join(ws.allowed, "ok.txt") })) as {
        result?: { content: string };
      };
      expect(ok.result?.content).toBe("OK");
    });
  },
);
