// Attack catalogue, section 1 (reads, listings, metadata): one test per entry, named by
// its id, judged per spec §12. Codes per ADR 0002 §4: outside-allowed → FS_OUTSIDE_ALLOWED,
// blocked-path → FS_BLOCKED, symlink-escape and ambiguous-dotdot → FS_SYMLINK_ESCAPE,
// dangling-link → FS_DANGLING_LINK, invalid-path → FS_INVALID_PATH, not-regular-file →
// FS_NOT_REGULAR. Every test also checks that no canary leaked.
import { open, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createFileConfig } from "../src/index.js";
import {
  createHarness,
  expectDenied,
  expectNoCanary,
  expectResult,
  withBlocked,
} from "./helpers/harness.js";
import { makeFifo, makeSocket } from "./helpers/special-files.js";
import { buildTree, useWorkspace } from "./helpers/workspace.js";

const ws = useWorkspace();

/** `$A` with the catalogue's defaults: blocked `$B` on top of the default list. */
const harness = (config = {}) =>
  createHarness(ws, { config: { blockedPaths: withBlocked(ws.blocked), ...config } });
/** Joined as text, keeping `.`, `..` and doubled separators. */
const raw = (...parts: string[]) => parts.join("/");

describe("attack catalogue §1: containment of reads, listings and metadata", () => {
  it("A02: plain .., absolute paths and bare .. are all outside-allowed", async () => {
    await buildTree(ws.allowed, { sub: { dir: true } });
    const tools = harness({ baseDir: ws.allowed });
    const calls = [
      ["read_file", { path: raw(ws.allowed, "..", "outside", "secret.txt") }],
      ["read_file", { path: raw(ws.allowed, "sub", "..", "..", "outside", "secret.txt") }],
      ["list_directory", { path: ".." }],
      ["list_directory", { path: raw(ws.allowed, "..") }],
      ["file_info", { path: path.join(ws.outside, "secret.txt") }],
    ] as const;
    for (const [tool, args] of calls)
      expectDenied(await tools.call(tool, args), "FS_OUTSIDE_ALLOWED");
    expectDenied(await harness().call("list_directory", { path: ".." }), "FS_NO_BASE_DIR");
  });

  it("A04: relative paths resolve against the configured base, never the host's working directory", async () => {
    const previous = process.cwd();
    process.chdir(ws.outside);
    try {
      const based = harness({ baseDir: ws.allowed });
      expectDenied(await based.call("read_file", { path: "secret.txt" }), "FS_NOT_FOUND");
      const listed = expectResult(await based.call("list_directory", { path: "." }));
      expect(listed.path).toBe(ws.allowed);
      expect(listed.entries.map((entry: { name: string }) => entry.name)).not.toContain(
        "secret.txt",
      );
      const unbased = harness();
      expectDenied(await unbased.call("read_file", { path: "secret.txt" }), "FS_NO_BASE_DIR");
      expectDenied(await unbased.call("list_directory", { path: "." }), "FS_NO_BASE_DIR");
    } finally {
      process.chdir(previous);
    }
  });

  it("A06: a symlinked directory in the middle of the path is a symlink escape", async () => {
    await buildTree(ws.allowed, { dirlink: { link: ws.outside } });
    const tools = harness();
    expectDenied(
      await tools.call("read_file", { path: path.join(ws.allowed, "dirlink", "secret.txt") }),
      "FS_SYMLINK_ESCAPE",
    );
    expectDenied(
      await tools.call("list_directory", { path: path.join(ws.allowed, "dirlink") }),
      "FS_SYMLINK_ESCAPE",
    );
  });

  it("A08: .. after a symlink — the tools remove .. as text and open that location (pinned: DECOY-IN)", async () => {
    await buildTree(ws.root, {
      "outside/inner": { dir: true },
      "allowed/link": { link: path.join(ws.outside, "inner") },
      "allowed/secret.txt": "DECOY-IN",
    });
    const value = await harness().call("read_file", {
      path: raw(ws.allowed, "link", "..", "secret.txt"),
    });
    expect(expectResult(value).content).toBe("DECOY-IN");
    expectNoCanary(value);
    // the judge asked directly (isPathAllowed, the path as given) refuses the disagreement
    const config = createFileConfig({ allowedPaths: [ws.allowed] });
    expect(await config.isPathAllowed(raw(ws.allowed, "link", "..", "secret.txt"))).toBe(false);
  });

  it("A10 (adapted): a link to outside is a symlink escape before and after its target exists", async () => {
    // The catalogue expects `dangling-link` first; that answer tells that the outside
    // target is missing. kernel-boundary.md §1 item 7 (one answer for an existing and a
    // missing path outside) supersedes it. A dangling link within the grant is still one
    // (seed-conformance).
    await buildTree(ws.allowed, { dang: { link: path.join(ws.outside, "notyet.txt") } });
    const tools = harness();
    const target = path.join(ws.allowed, "dang");
    expectDenied(await tools.call("read_file", { path: target }), "FS_SYMLINK_ESCAPE");
    expectDenied(await tools.call("file_info", { path: target }), "FS_SYMLINK_ESCAPE");
    await writeFile(path.join(ws.outside, "notyet.txt"), "CANARY-OUT");
    expectDenied(await tools.call("read_file", { path: target }), "FS_SYMLINK_ESCAPE");
    expectDenied(
      await harness({ followSymlinks: true }).call("read_file", { path: target }),
      "FS_SYMLINK_ESCAPE",
    );
  });

  it("A12: a blocked path wins over every spelling and every allow, even a more specific one", async () => {
    await buildTree(ws.blocked, { "sub/k.txt": "CANARY-BLK" });
    const tools = createHarness(ws, {
      config: {
        allowedPaths: [ws.allowed, path.join(ws.blocked, "sub")],
        blockedPaths: { blocked: [ws.blocked], writeBlocked: [] },
      },
    });
    for (const spelling of [
      path.join(ws.blocked, "key.txt"),
      raw(ws.allowed, ".", "blocked", "key.txt"),
      raw(ws.allowed, "", "blocked", "key.txt"),
      raw(ws.allowed, "x", "..", "blocked", "key.txt"),
      path.join(ws.blocked, "sub", "k.txt"),
    ]) {
      expectDenied(await tools.call("read_file", { path: spelling }), "FS_BLOCKED");
    }
    expectDenied(await tools.call("list_directory", { path: `${ws.blocked}/` }), "FS_BLOCKED");
    expectDenied(await tools.call("file_info", { path: ws.blocked }), "FS_BLOCKED");
  });

  it("A14: blocked names are matched without regard to case (Linux: the lower-case directory is blocked)", async () => {
    await buildTree(ws.allowed, { "private/key.txt": "CANARY-BLK" });
    const tools = createHarness(ws, {
      config: { blockedPaths: { blocked: [path.join(ws.allowed, "Private")], writeBlocked: [] } },
    });
    expectDenied(
      await tools.call("read_file", { path: path.join(ws.allowed, "private", "key.txt") }),
      "FS_BLOCKED",
    );
    const upper = await tools.call("read_file", {
      path: path.join(ws.allowed, "PRIVATE", "key.txt"),
    });
    expect(["FS_BLOCKED", "FS_NOT_FOUND"]).toContain(upper.denials?.[0]?.code);
    expectNoCanary(upper);
  });

  it.skip("A14 [macOS, Windows]: both spellings open one file on a case-insensitive file system and both are blocked — skipped: needs macOS (APFS) or Windows (NTFS); CI is Linux only", () => {});

  it("A16: the allowed root reached through a symlink — both spellings of ok.txt allowed, both blocked spellings refused", async () => {
    await buildTree(ws.root, {
      "real/ok.txt": "OK",
      "real/blocked/key.txt": "CANARY-BLK",
      alias: { link: path.join(ws.root, "real") },
    });
    const alias = path.join(ws.root, "alias");
    const real = path.join(ws.root, "real");
    const tools = createHarness(ws, {
      grant: { fs_read: { only: [ws.root] } },
      config: {
        allowedPaths: [alias],
        blockedPaths: { blocked: [path.join(alias, "blocked")], writeBlocked: [] },
      },
    });
    expect(
      expectResult(await tools.call("read_file", { path: path.join(alias, "ok.txt") })).content,
    ).toBe("OK");
    expect(
      expectResult(await tools.call("read_file", { path: path.join(real, "ok.txt") })).content,
    ).toBe("OK");
    expectDenied(
      await tools.call("read_file", { path: path.join(real, "blocked", "key.txt") }),
      "FS_BLOCKED",
    );
    expectDenied(
      await tools.call("read_file", { path: path.join(alias, "blocked", "key.txt") }),
      "FS_BLOCKED",
    );
  });

  it.runIf(process.platform === "darwin")(
    "A16 [macOS only; skipped on Linux and Windows, where /etc is not a link]: the default block on /etc also refuses /private/etc/hosts",
    async () => {
      const tools = createHarness(ws, { grant: { fs_read: "all" } });
      expectDenied(await tools.call("read_file", { path: "/private/etc/hosts" }), "FS_BLOCKED");
    },
  );

  it("A22: the host's own descriptors (/proc/self/fd/N, /dev/fd/N, /dev/stdin) are refused, without blocking", async () => {
    const held = await open(path.join(ws.outside, "secret.txt"), "r");
    try {
      const fd = held.fd;
      await buildTree(ws.allowed, { fdlink: { link: `/dev/fd/${fd}` } });
      const grantAll = { grant: { fs_read: "all" as const } };
      const defaults = createHarness(ws, grantAll);
      const noBlocks = createHarness(ws, {
        ...grantAll,
        config: { allowedPaths: [ws.allowed], blockedPaths: { blocked: [], writeBlocked: [] } },
      });
      for (const target of [`/proc/self/fd/${fd}`, `/dev/fd/${fd}`, "/dev/stdin"]) {
        const blocked = await defaults.call("read_file", { path: target });
        // /dev/stdin leads to /proc/self/fd/0, a pipe or socket that has no path: the
        // judge cannot resolve it (a dangling link) before it gets to the blocked list.
        const expected =
          target === "/dev/stdin"
            ? ["FS_DANGLING_LINK", "FS_CANNOT_RESOLVE", "FS_BLOCKED"]
            : ["FS_BLOCKED"];
        expect(expected, target).toContain(blocked.denials?.[0]?.code);
        expectNoCanary(blocked);
        const contained = await noBlocks.call("read_file", { path: target });
        expect(contained.denied, target).toBe(true);
        expectNoCanary(contained);
      }
      for (const tools of [harness(), noBlocks]) {
        const viaLink = await tools.call("read_file", { path: path.join(ws.allowed, "fdlink") });
        expect(viaLink.denied).toBe(true);
        expectNoCanary(viaLink);
      }
    } finally {
      await held.close();
    }
  });

  it("A24: NUL and control characters are an invalid path, refused before any resolution", async () => {
    const tools = harness();
    for (const [tool, target] of [
      ["read_file", `${ws.allowed}/ok.txt\u0000/../../outside/secret.txt`],
      ["read_file", `${ws.allowed}/ok\u0001.txt`],
      ["list_directory", `${ws.allowed}\u0000`],
      ["file_info", `${ws.allowed}/\u009bok.txt`],
      ["write_file", `${ws.allowed}/new\u0000.txt`],
    ] as const) {
      const value = await tools.call(tool, {
        path: target,
        ...(tool === "write_file" ? { content: "X" } : {}),
      });
      expectDenied(value, "FS_INVALID_PATH");
      const reason = value.denials?.[0]?.reason ?? "";
      expect(reason).not.toMatch(/\n\s+at |Error:/);
      expect(reason).not.toContain("\u0000");
    }
  });

  it("A26: FIFO, socket and devices are not regular files (or blocked), and nothing blocks", async () => {
    makeFifo(path.join(ws.allowed, "pipe"));
    const server = await makeSocket(path.join(ws.allowed, "sock"));
    try {
      await buildTree(ws.allowed, { zero: { link: "/dev/zero" }, tty: { link: "/dev/tty" } });
      for (const followSymlinks of [false, true]) {
        const tools = harness({ followSymlinks });
        expectDenied(
          await tools.call("read_file", { path: path.join(ws.allowed, "pipe") }),
          "FS_NOT_REGULAR",
        );
        expectDenied(
          await tools.call("read_file", { path: path.join(ws.allowed, "sock") }),
          "FS_NOT_REGULAR",
        );
        for (const name of ["zero", "tty"]) {
          const value = await tools.call("read_file", { path: path.join(ws.allowed, name) });
          expect(["FS_BLOCKED", "FS_SYMLINK_ESCAPE"]).toContain(value.denials?.[0]?.code);
        }
      }
      const tools = harness();
      expect(
        expectResult(await tools.call("file_info", { path: path.join(ws.allowed, "pipe") })).type,
      ).toBe("fifo");
      expect(
        expectResult(await tools.call("file_info", { path: path.join(ws.allowed, "sock") })).type,
      ).toBe("socket");
    } finally {
      server.close();
    }
  });

  it.skip("A28: Windows 8.3 short names (C:\\PROGRA~1, SECRET~1) — skipped: needs Windows; 8.3 short names do not exist on Linux", () => {});
  it.skip('A30: trailing dots and spaces (blocked.\\key.txt, "blocked \\key.txt") — skipped: needs Windows, where Win32 drops them; core\'s blocked matching already ignores them (tested in core)', () => {});
  it.skip("A32: junctions and case-insensitive roots — skipped: needs Windows (NTFS junctions); the symlink equivalent is A06", () => {});
});
