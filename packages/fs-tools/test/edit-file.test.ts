// edit_file (issue 17 point 9): exact-text replacement, refusals that write nothing, and
// the attack catalogue's fs entries (§1, §2, A96; the races A18, A20 are in
// catalogue-races.test.ts), each denial with nothing changed.
import { execFileSync } from "node:child_process";
import { open, readFile } from "node:fs/promises";
import path from "node:path";
import { only } from "@agent-bridle/core";
import { describe, expect, it } from "vitest";
import { createHarness, expectDenied, expectNoCanary, withBlocked } from "./helpers/harness.js";
import { buildTree, snapshot, useWorkspace } from "./helpers/workspace.js";

const ws = useWorkspace();
const FILE = "alpha\nbeta\ngamma\ndelta\n";

function edit(target: string, edits: { old_text: string; new_text: string }[], extra = {}) {
  return { path: target, edits, ...extra };
}

describe("edit_file", () => {
  it("replaces each exact text once, writes the file and returns a unified diff", async () => {
    await buildTree(ws.allowed, { "f.txt": FILE });
    const tools = createHarness(ws);
    const value = await tools.call(
      "edit_file",
      edit(path.join(ws.allowed, "f.txt"), [
        { old_text: "beta", new_text: "BETA" },
        { old_text: "delta\n", new_text: "delta\nepsilon\n" },
      ]),
    );
    expect(value.denied).toBeUndefined();
    expect(value.enforcement).toEqual({ fs_read: "interceptor", fs_write: "interceptor" });
    expect(await readFile(path.join(ws.allowed, "f.txt"), "utf8")).toBe(
      "alpha\nBETA\ngamma\ndelta\nepsilon\n",
    );
    expect(value.result).toMatchObject({ edits_applied: 2, dry_run: false, bytes_written: 31 });
    expect(value.result.diff).toBe(
      "--- f.txt\n+++ f.txt\n@@ -1,4 +1,5 @@\n alpha\n-beta\n+BETA\n gamma\n delta\n+epsilon\n",
    );
  });

  it("keeps the diff format `patch` applies (checked with the real patch program)", async () => {
    const before = Array.from({ length: 40 }, (_, i) => `line ${i + 1}`)
      .join("\n")
      .concat("\n");
    await buildTree(ws.allowed, { "g.txt": before, "copy.txt": before });
    const tools = createHarness(ws);
    const value = await tools.call(
      "edit_file",
      edit(path.join(ws.allowed, "g.txt"), [
        { old_text: "line 3\n", new_text: "" },
        { old_text: "line 30\n", new_text: "line thirty\n" },
      ]),
    );
    const diffFile = path.join(ws.root, "change.diff");
    await buildTree(ws.root, { "change.diff": value.result.diff });
    execFileSync("patch", ["-s", path.join(ws.allowed, "copy.txt"), diffFile]);
    expect(await readFile(path.join(ws.allowed, "copy.txt"), "utf8")).toBe(
      await readFile(path.join(ws.allowed, "g.txt"), "utf8"),
    );
  });

  it.each([
    ["FS_EDIT_NOT_FOUND", [{ old_text: "zeta", new_text: "x" }]],
    ["FS_EDIT_NOT_UNIQUE", [{ old_text: "a\n", new_text: "x" }]],
    // the first edit would apply; the second fails, so nothing is written
    [
      "FS_EDIT_NOT_FOUND",
      [
        { old_text: "alpha", new_text: "ALPHA" },
        { old_text: "alpha", new_text: "again" },
      ],
    ],
  ])("refuses %s without writing anything", async (code, edits) => {
    await buildTree(ws.allowed, { "f.txt": FILE });
    const before = await snapshot(ws.allowed);
    const value = await createHarness(ws).call(
      "edit_file",
      edit(path.join(ws.allowed, "f.txt"), edits),
    );
    expectDenied(value, code);
    expect(await snapshot(ws.allowed)).toEqual(before);
  });

  it("dry_run returns the diff and writes nothing", async () => {
    await buildTree(ws.allowed, { "f.txt": FILE });
    const before = await snapshot(ws.allowed);
    const value = await createHarness(ws).call(
      "edit_file",
      edit(path.join(ws.allowed, "f.txt"), [{ old_text: "gamma", new_text: "G" }], {
        dry_run: true,
      }),
    );
    expect(value.result).toMatchObject({ dry_run: true, bytes_written: 0 });
    expect(value.result.diff).toContain("-gamma\n+G\n");
    expect(await snapshot(ws.allowed)).toEqual(before);
  });

  it("needs fs_read as well as fs_write (a write-only grant cannot learn the file by editing)", async () => {
    await buildTree(ws.allowed, { "f.txt": FILE });
    const before = await snapshot(ws.allowed);
    const tools = createHarness(ws, { grant: { fs_read: only([ws.outside]) } });
    const value = await tools.call(
      "edit_file",
      edit(path.join(ws.allowed, "f.txt"), [{ old_text: "beta", new_text: "B" }]),
    );
    expectDenied(value, "FS_OUTSIDE_ALLOWED");
    expect(await snapshot(ws.allowed)).toEqual(before);
  });
});

describe("attack catalogue, fs entries, through edit_file", () => {
  const secretEdit = [{ old_text: "CANARY-OUT", new_text: "PWNED" }];

  it("A02: `..` and absolute paths outside the allowed root are refused; the outside file is unchanged", async () => {
    await buildTree(ws.allowed, { "sub/.keep": "" });
    const tools = createHarness(ws);
    for (const target of [
      path.join(ws.allowed, "../outside/secret.txt"),
      path.join(ws.allowed, "sub/../../outside/secret.txt"),
      path.join(ws.outside, "secret.txt"),
    ]) {
      expectDenied(await tools.call("edit_file", edit(target, secretEdit)), "FS_OUTSIDE_ALLOWED");
    }
    expect(await readFile(path.join(ws.outside, "secret.txt"), "utf8")).toBe("CANARY-OUT");
    // positive control: the same edit inside the root applies
    await buildTree(ws.allowed, { "in.txt": "CANARY-OUT" });
    const control = await tools.call(
      "edit_file",
      edit(path.join(ws.allowed, "in.txt"), secretEdit),
    );
    expect(control.denied).toBeUndefined();
  });

  it("A04: a relative path without a base directory is refused, not resolved against the host cwd", async () => {
    const cwd = process.cwd();
    process.chdir(ws.outside);
    try {
      const value = await createHarness(ws).call("edit_file", edit("secret.txt", secretEdit));
      expectDenied(value, "FS_NO_BASE_DIR");
    } finally {
      process.chdir(cwd);
    }
    expect(await readFile(path.join(ws.outside, "secret.txt"), "utf8")).toBe("CANARY-OUT");
  });

  it("A06, A10, A34: a symlinked directory and a dangling link are refused as escapes", async () => {
    await buildTree(ws.allowed, {
      dirlink: { link: ws.outside },
      dang: { link: path.join(ws.outside, "notyet.txt") },
    });
    const tools = createHarness(ws);
    const through = await tools.call(
      "edit_file",
      edit(path.join(ws.allowed, "dirlink/secret.txt"), secretEdit),
    );
    expectDenied(through, "FS_SYMLINK_ESCAPE");
    const dangling = await tools.call("edit_file", edit(path.join(ws.allowed, "dang"), secretEdit));
    expectDenied(dangling, "FS_SYMLINK_ESCAPE");
    expect(await readFile(path.join(ws.outside, "secret.txt"), "utf8")).toBe("CANARY-OUT");
  });

  it("A08: `..` after a link is removed as text first, so the edit is of $A's file (pinned: the decoy, never the outside)", async () => {
    await buildTree(ws.outside, { "inner/.keep": "" });
    await buildTree(ws.allowed, {
      link: { link: path.join(ws.outside, "inner") },
      "secret.txt": "DECOY-IN",
    });
    const value = await createHarness(ws).call(
      "edit_file",
      edit(`${ws.allowed}/link/../secret.txt`, [{ old_text: "DECOY-IN", new_text: "EDITED" }]),
    );
    expect(value.denied).toBeUndefined();
    expect(await readFile(path.join(ws.allowed, "secret.txt"), "utf8")).toBe("EDITED");
    expect(await readFile(path.join(ws.outside, "secret.txt"), "utf8")).toBe("CANARY-OUT");
    expect(await snapshot(ws.outside)).toEqual({
      "inner/": "<dir>",
      "inner/.keep": "",
      "secret.txt": "CANARY-OUT",
    });
  });

  it("A16: a root reached through a link — both spellings of ok.txt edited, both blocked spellings refused", async () => {
    await buildTree(ws.root, {
      "real/ok.txt": "OK",
      "real/blocked/key.txt": "CANARY-BLK",
      alias: { link: path.join(ws.root, "real") },
    });
    const alias = path.join(ws.root, "alias");
    const real = path.join(ws.root, "real");
    const tools = createHarness(ws, {
      grant: { fs_read: only([ws.root]), fs_write: only([ws.root]) },
      config: {
        allowedPaths: [alias],
        blockedPaths: { blocked: [path.join(alias, "blocked")], writeBlocked: [] },
      },
    });
    // positive controls: either spelling of the allowed root is edited
    for (const [root, next] of [
      [alias, "VIA-ALIAS"],
      [real, "VIA-REAL"],
    ] as const) {
      const before = await readFile(path.join(real, "ok.txt"), "utf8");
      const value = await tools.call(
        "edit_file",
        edit(path.join(root, "ok.txt"), [{ old_text: before, new_text: next }]),
      );
      expect(value.denied, JSON.stringify(value)).toBeUndefined();
      expect(await readFile(path.join(real, "ok.txt"), "utf8")).toBe(next);
    }
    for (const root of [alias, real]) {
      expectDenied(
        await tools.call(
          "edit_file",
          edit(path.join(root, "blocked/key.txt"), [{ old_text: "CANARY-BLK", new_text: "PWNED" }]),
        ),
        "FS_BLOCKED",
      );
    }
    expect(await readFile(path.join(real, "blocked/key.txt"), "utf8")).toBe("CANARY-BLK");
  });

  it("A22: the host's own descriptors (/proc/self/fd/N, /dev/fd/N) and a link to one are refused; the file they name is unchanged", async () => {
    const held = await open(path.join(ws.outside, "secret.txt"), "r");
    try {
      await buildTree(ws.allowed, { fdlink: { link: `/dev/fd/${held.fd}` } });
      const before = await snapshot(ws.allowed);
      const everywhere = { fs_read: "all", fs_write: "all" } as const;
      for (const tools of [
        createHarness(ws, { grant: everywhere }),
        createHarness(ws, {
          grant: everywhere,
          config: { allowedPaths: [ws.allowed], blockedPaths: { blocked: [], writeBlocked: [] } },
        }),
      ]) {
        for (const target of [
          `/proc/self/fd/${held.fd}`,
          `/dev/fd/${held.fd}`,
          path.join(ws.allowed, "fdlink"),
        ]) {
          const value = await tools.call("edit_file", edit(target, secretEdit));
          expect(value.denied, target).toBe(true);
          expectNoCanary(value);
        }
      }
      expect(await readFile(path.join(ws.outside, "secret.txt"), "utf8")).toBe("CANARY-OUT");
      expect(await snapshot(ws.allowed)).toEqual(before);
    } finally {
      await held.close();
    }
    // positive control: the same grant edits a file inside $A
    await buildTree(ws.allowed, { "in.txt": "CANARY-OUT" });
    const control = await createHarness(ws).call(
      "edit_file",
      edit(path.join(ws.allowed, "in.txt"), secretEdit),
    );
    expect(control.denied).toBeUndefined();
  });

  it("A12, A14: a blocked path wins over every spelling and a more specific allow, case-insensitively", async () => {
    await buildTree(ws.blocked, { "sub/k.txt": "CANARY-BLK" });
    await buildTree(ws.allowed, { private: { dir: true }, "private/key.txt": "CANARY-BLK" });
    const before = await snapshot(ws.allowed);
    const tools = createHarness(ws, {
      config: {
        allowedPaths: [ws.allowed, path.join(ws.blocked, "sub")],
        blockedPaths: withBlocked(ws.blocked, path.join(ws.allowed, "Private")),
      },
    });
    const blockedEdit = [{ old_text: "CANARY-BLK", new_text: "PWNED" }];
    for (const target of [
      path.join(ws.blocked, "key.txt"),
      `${ws.allowed}/./blocked/key.txt`,
      `${ws.allowed}//blocked/key.txt`,
      `${ws.allowed}/x/../blocked/key.txt`,
      path.join(ws.blocked, "sub/k.txt"),
      path.join(ws.allowed, "private/key.txt"),
    ]) {
      expectDenied(await tools.call("edit_file", edit(target, blockedEdit)), "FS_BLOCKED");
    }
    expect(await snapshot(ws.allowed)).toEqual(before);
  });

  it("A24: NUL and control characters are an invalid path", async () => {
    const tools = createHarness(ws);
    for (const target of [
      `${ws.allowed}/ok.txt\u0000/../../outside/secret.txt`,
      `${ws.allowed}/ok\u0001.txt`,
    ]) {
      expectDenied(await tools.call("edit_file", edit(target, secretEdit)), "FS_INVALID_PATH");
    }
  });

  it("A26: a FIFO or a device is refused as not a regular file, without blocking", async () => {
    execFileSync("mkfifo", [path.join(ws.allowed, "pipe")]);
    const tools = createHarness(ws);
    const fifo = await tools.call(
      "edit_file",
      edit(path.join(ws.allowed, "pipe"), [{ old_text: "x", new_text: "y" }]),
    );
    expectDenied(fifo, "FS_NOT_REGULAR");
  });

  it("A36: the agent's control files stay blocked for edits (write-only defaults)", async () => {
    await buildTree(ws.allowed, {
      ".git/hooks/pre-commit": "#!/bin/sh\nexit 0\n",
      ".vscode/settings.json": "{}",
    });
    const before = await snapshot(ws.allowed);
    const tools = createHarness(ws, { config: {} });
    for (const target of [
      ".git/hooks/pre-commit",
      ".vscode/settings.json",
      ".VSCode/settings.json",
    ]) {
      const value = await tools.call(
        "edit_file",
        edit(path.join(ws.allowed, target), [{ old_text: "exit 0", new_text: "touch PWNED" }]),
      );
      expect(value.denied, target).toBe(true);
      expect(["FS_BLOCKED", "FS_NOT_FOUND"]).toContain(value.denials?.[0]?.code);
    }
    expect(await snapshot(ws.allowed)).toEqual(before);
  });

  it("A96: a file over maxFileSize is refused before it is read whole", async () => {
    await buildTree(ws.allowed, { "big.txt": "x".repeat(2048) });
    const before = await snapshot(ws.allowed);
    const tools = createHarness(ws, { config: { maxFileSize: 1024 } });
    const value = await tools.call(
      "edit_file",
      edit(path.join(ws.allowed, "big.txt"), [{ old_text: "x", new_text: "y" }]),
    );
    expectDenied(value, "FS_TOO_LARGE");
    expect(await snapshot(ws.allowed)).toEqual(before);
  });
});
