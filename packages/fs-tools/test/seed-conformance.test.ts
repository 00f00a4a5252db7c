// The seed document `fs-tools-file-config.txt` is the contract for FileConfig and the
// path rules. One test per sentence, in the seed's order, each with its own fixture under
// the system temp directory. (The seed's trailing Scaladoc lines — "Attributes",
// "Companion", "Supertypes" — describe the Scala class, not behaviour.)
import { link, lstat, readdir, readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { only } from "@agent-bridle/core";
import { beforeEach, describe, expect, it } from "vitest";
import { createFileConfig, createFsTools, defaultBlockedPaths } from "../src/index.js";
import {
  createHarness,
  expectDenied,
  expectNoCanary,
  expectResult,
  type HarnessOptions,
} from "./helpers/harness.js";
import { startSwapper } from "./helpers/swapper.js";
import { buildTree, useWorkspace } from "./helpers/workspace.js";

const ws = useWorkspace();

const call = (tool: string, args: Record<string, unknown>, options: HarnessOptions = {}) =>
  createHarness(ws, options).call(tool, args);
const at = (...parts: string[]) => path.join(ws.root, ...parts);
const inA = (...parts: string[]) => path.join(ws.allowed, ...parts);
/** Joined as text, keeping `.` and `..` (path.join would remove them). */
const raw = (...parts: string[]) => parts.join("/");

describe("seed: Configuration for file system tools", () => {
  it("Configuration for file system tools. — one FileConfig configures every tool", async () => {
    const tools = createFsTools(createFileConfig({ maxFileSize: 10 }));
    expect(Object.keys(tools)).toEqual([
      "readFile",
      "listDirectory",
      "fileInfo",
      "writeFile",
      "editFile",
      "searchFiles",
      "directoryTree",
      "listAllowedDirectories",
    ]);
    expect(tools.readFile.description).toContain("10 bytes");
    expect(tools.editFile.description).toContain("10 bytes");
    expect(tools.searchFiles.description).toContain("10 bytes");
  });
});

describe("seed: How a path is judged", () => {
  it("By where it really is, not by how it is spelled: every symbolic link is replaced by its real target, then the result is compared with each entry, resolved the same way, one path component at a time.", async () => {
    await buildTree(ws.root, {
      "allowed/out": { link: ws.outside },
      "outside/in": { link: ws.allowed },
      "alias-allowed": { link: ws.allowed },
    });
    expectDenied(await call("read_file", { path: inA("out", "secret.txt") }), "FS_SYMLINK_ESCAPE");
    const spelledOutside = await call("read_file", { path: at("outside", "in", "ok.txt") });
    expect(expectResult(spelledOutside).content).toBe("OK");
    const viaEntryAlias = await call(
      "read_file",
      { path: inA("ok.txt") },
      { grant: { fs_read: only([at("alias-allowed")]) } },
    );
    expect(expectResult(viaEntryAlias).content).toBe("OK");
  });

  it("isPathAllowed judges the path as given, and a .. after a link is read both ways an OS reads it: physically, as POSIX does (link/.. is the parent of the link's target), and lexically, as Windows does (.. removed as text before links are followed, so link/.. is the directory holding the link).", async () => {
    await buildTree(ws.root, {
      "outside/inner/x": "x",
      "allowed/link": { link: at("outside", "inner") },
    });
    const given = raw(ws.allowed, "link", "..", "secret.txt");
    // physical: $O/secret.txt; lexical: $A/secret.txt
    expect(await createFileConfig({ allowedPaths: [ws.allowed] }).isPathAllowed(given)).toBe(false);
    expect(await createFileConfig({ allowedPaths: [ws.outside] }).isPathAllowed(given)).toBe(false);
    const both = createFileConfig({ allowedPaths: [ws.allowed, ws.outside] });
    expect(await both.isPathAllowed(given)).toBe(true);
  });

  it("The path is allowed only when both locations are allowed, whatever platform the check runs on; a path whose readings disagree, one inside and one outside, is refused on every OS.", async () => {
    await buildTree(ws.root, {
      "allowed/sub/inner/x": "x",
      "allowed/deep": { link: inA("sub", "inner") },
      "outside/back": { link: inA("sub") },
      "allowed/to-outside": { link: ws.outside },
    });
    const config = createFileConfig({ allowedPaths: [ws.allowed] });
    // both readings inside: physical $A/sub/ok.txt, lexical $A/ok.txt
    expect(await config.isPathAllowed(raw(ws.allowed, "deep", "..", "ok.txt"))).toBe(true);
    // physical inside ($A/ok.txt... via $A/sub/..), lexical outside ($O/ok.txt)
    expect(await config.isPathAllowed(raw(ws.outside, "back", "..", "ok.txt"))).toBe(false);
    // physical outside ($WS/secret...), lexical inside ($A/ok.txt)
    expect(await config.isPathAllowed(raw(ws.allowed, "to-outside", "..", "ok.txt"))).toBe(false);
  });

  it("The tools first remove . and .. from the path they are given as text (data/link/../x is data/x for them), so the two readings agree, and then judge and open that location, so what they open is what they checked.", async () => {
    await buildTree(ws.root, {
      "outside/inner/x": "x",
      "allowed/link": { link: at("outside", "inner") },
      "allowed/secret.txt": "DECOY-IN",
    });
    const read = await call("read_file", { path: raw(ws.allowed, "link", "..", "secret.txt") });
    expect(expectResult(read)).toMatchObject({ path: inA("secret.txt"), content: "DECOY-IN" });
    const info = await call("file_info", { path: raw(ws.allowed, "link", ".", "..", "ok.txt") });
    expect(expectResult(info)).toMatchObject({ path: inA("ok.txt"), type: "file" });
    const written = await call("write_file", {
      path: raw(ws.allowed, "link", "..", "w.txt"),
      content: "W",
    });
    expect(expectResult(written).path).toBe(inA("w.txt"));
    expect(await readFile(inA("w.txt"), "utf8")).toBe("W");
    expect(await readdir(ws.outside)).toEqual(["inner", "secret.txt"]);
  });

  it("/srv/data allows /srv/data/x and does not allow /srv/data-secret/x.", async () => {
    await buildTree(ws.root, { "data/x": "DATA", "data-secret/x": "CANARY-OUT" });
    const grant = { fs_read: only([at("data")]) };
    expect(
      expectResult(await call("read_file", { path: at("data", "x") }, { grant })).content,
    ).toBe("DATA");
    expectDenied(
      await call("read_file", { path: at("data-secret", "x") }, { grant }),
      "FS_OUTSIDE_ALLOWED",
    );
    const config = { allowedPaths: [at("data")] };
    const byConfig = await call(
      "read_file",
      { path: at("data-secret", "x") },
      { grant: { fs_read: "all" }, config },
    );
    expectDenied(byConfig, "FS_OUTSIDE_ALLOWED");
  });

  it("A symbolic link that cannot be resolved (a dangling link) is refused.", async () => {
    await buildTree(ws.allowed, {
      dangling: { link: "missing.txt" },
      "dir-dangling": { link: "missing-dir" },
    });
    for (const [tool, args] of [
      ["read_file", { path: inA("dangling") }],
      ["file_info", { path: inA("dangling") }],
      ["list_directory", { path: inA("dir-dangling") }],
      ["read_file", { path: inA("dir-dangling", "x.txt") }],
      ["write_file", { path: inA("dangling"), content: "X" }],
    ] as const) {
      expectDenied(await call(tool, args), "FS_DANGLING_LINK");
    }
    await expect(lstat(inA("missing.txt"))).rejects.toThrow();
  });

  it("The tools open the resolved path, so a link swapped in after the check does not redirect the open;", async () => {
    const name = inA("swapped.txt");
    await writeFile(name, "DECOY-IN");
    const swapper = startSwapper("final-name", [
      name,
      path.join(ws.outside, "secret.txt"),
      "DECOY-IN",
    ]);
    const harness = createHarness(ws, { config: { followSymlinks: true } });
    const outcomes = new Map<string, number>();
    try {
      for (let round = 0; round < 300; round++) {
        const value = await harness.call("read_file", { path: name });
        expectNoCanary(value);
        const key = value.result ? "read" : (value.denials?.[0]?.code ?? "?");
        outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
      }
    } finally {
      await swapper.stop();
    }
    expect([...outcomes.keys()].every((key) => key === "read" || key.startsWith("FS_"))).toBe(true);
  });

  it("a directory swapped for a link between the resolution and the open is a race this narrows and does not close.", async () => {
    // Reads are closed by the device/inode check; new files may be left empty at the
    // link's target (the residual core documents), but no content ever lands outside.
    await buildTree(ws.allowed, { "sub/secret.txt": "DECOY-IN" });
    const swapper = startSwapper("directory", [inA("sub"), ws.outside]);
    const harness = createHarness(ws);
    try {
      for (let round = 0; round < 200; round++) {
        expectNoCanary(await harness.call("read_file", { path: inA("sub", "secret.txt") }));
        await harness
          .call("write_file", { path: inA("sub", `new-${round}.txt`), content: "WRITTEN" })
          .catch((error: { code?: string }) => expect(error.code).toBe("TOOL_FAILED"));
      }
    } finally {
      await swapper.stop();
    }
    expect(await readFile(path.join(ws.outside, "secret.txt"), "utf8")).toBe("CANARY-OUT");
    for (const name of await readdir(ws.outside)) {
      if (name === "secret.txt") continue;
      expect((await stat(path.join(ws.outside, name))).size, name).toBe(0);
    }
  }, 60_000);

  it("A hard link is not contained: a hard link inside an allowed directory to a file elsewhere is that file under an allowed name, and no path check can tell it apart, so do not let untrusted parties create files in an allowed directory.", async () => {
    // RESIDUAL, pinned: the read returns the outside file's content. An overwrite replaces
    // the allowed name (atomic rename) and leaves the outside file alone; an append writes
    // through to it.
    await link(path.join(ws.outside, "secret.txt"), inA("hard"));
    const read = await call("read_file", { path: inA("hard") });
    expect(expectResult(read).content).toBe("CANARY-OUT");
    expectResult(await call("write_file", { path: inA("hard"), content: "REPLACED" }));
    expect(await readFile(path.join(ws.outside, "secret.txt"), "utf8")).toBe("CANARY-OUT");
    await link(path.join(ws.outside, "secret.txt"), inA("hard2"));
    expectResult(await call("write_file", { path: inA("hard2"), content: "+", mode: "append" }));
    expect(await readFile(path.join(ws.outside, "secret.txt"), "utf8")).toBe("CANARY-OUT+");
  });
});

describe("seed: allowedPaths", () => {
  it("Paths that are allowed to be accessed.", async () => {
    await buildTree(ws.allowed, { "sub/x.txt": "X" });
    const options = { config: { allowedPaths: [inA("sub")] } };
    expect(
      expectResult(await call("read_file", { path: inA("sub", "x.txt") }, options)).content,
    ).toBe("X");
    const refused = await call("read_file", { path: inA("ok.txt") }, options);
    expectDenied(refused, "FS_OUTSIDE_ALLOWED");
    expect(refused.denials?.[0]?.reason).toContain("tool's allowed paths");
  });

  it("None means any path.", async () => {
    await buildTree(ws.root, { "other/x.txt": "OTHER" });
    const options = { grant: { fs_read: only([ws.allowed, at("other")]) } };
    expect(
      expectResult(await call("read_file", { path: at("other", "x.txt") }, options)).content,
    ).toBe("OTHER");
    // and the grant still bounds it
    expectDenied(
      await call("read_file", { path: path.join(ws.outside, "secret.txt") }, options),
      "FS_OUTSIDE_ALLOWED",
    );
  });

  it("An entry that is itself reached through a symbolic link (such as /tmp on macOS) is resolved, and so are the paths checked against it.", async () => {
    await buildTree(ws.root, { alias: { link: ws.allowed } });
    const options = { config: { allowedPaths: [at("alias")] } };
    expect(expectResult(await call("read_file", { path: inA("ok.txt") }, options)).content).toBe(
      "OK",
    );
    expect(
      expectResult(await call("read_file", { path: at("alias", "ok.txt") }, options)).content,
    ).toBe("OK");
  });
});

describe("seed: blockedPaths", () => {
  it("Paths that are blocked from access (takes precedence over allowedPaths).", async () => {
    await buildTree(ws.blocked, { "sub/k.txt": "CANARY-BLK" });
    const config = {
      allowedPaths: [ws.allowed, path.join(ws.blocked, "sub")],
      blockedPaths: { blocked: [ws.blocked], writeBlocked: [] },
    };
    expectDenied(
      await call("read_file", { path: path.join(ws.blocked, "sub", "k.txt") }, { config }),
      "FS_BLOCKED",
    );
    expect(
      await createFileConfig(config).isPathAllowed(path.join(ws.blocked, "sub", "k.txt")),
    ).toBe(false);
  });

  it("Matched on the real location too, so blocking /etc also blocks /private/etc on macOS, and the default /var also blocks /private/var, where macOS keeps per-user temporary directories.", async () => {
    // <tmp>/etc is a link to <tmp>/private/etc, as /etc is on macOS.
    await buildTree(ws.root, {
      "private/etc/hosts": "CANARY-BLK",
      etc: { link: at("private", "etc") },
    });
    const config = { blockedPaths: { blocked: [at("etc")], writeBlocked: [] } };
    const grant = { fs_read: "all" as const };
    expectDenied(
      await call("read_file", { path: at("private", "etc", "hosts") }, { config, grant }),
      "FS_BLOCKED",
    );
    expectDenied(
      await call("read_file", { path: at("etc", "hosts") }, { config, grant }),
      "FS_BLOCKED",
    );
  });

  it("Matched without regard to case or Unicode normalisation, so /ETC/hosts is blocked by /etc, as it must be on a case-insensitive file system such as the macOS and Windows defaults;", async () => {
    const nfc = "caf\u00e9";
    const nfd = "cafe\u0301";
    await buildTree(ws.allowed, {
      "etc/hosts": "CANARY-BLK",
      [`${nfd}/k.txt`]: "CANARY-BLK",
      [`${nfc}x/k.txt`]: "CANARY-BLK",
    });
    const config = {
      blockedPaths: { blocked: [inA("ETC"), inA(nfc), inA(`cafe\u0301x`)], writeBlocked: [] },
    };
    expectDenied(await call("read_file", { path: inA("etc", "hosts") }, { config }), "FS_BLOCKED");
    expectDenied(await call("read_file", { path: inA(nfd, "k.txt") }, { config }), "FS_BLOCKED");
    expectDenied(
      await call("read_file", { path: inA(`${nfc}x`, "k.txt") }, { config }),
      "FS_BLOCKED",
    );
  });

  it("on a case-sensitive one this blocks a few more paths than it must, never fewer.", async () => {
    // Linux: Private and private are two directories; blocking one blocks both (pinned).
    await buildTree(ws.allowed, { "Private/k.txt": "CANARY-BLK", "private/other.txt": "PLAIN" });
    const config = { blockedPaths: { blocked: [inA("Private")], writeBlocked: [] } };
    expectDenied(
      await call("read_file", { path: inA("Private", "k.txt") }, { config }),
      "FS_BLOCKED",
    );
    expectDenied(
      await call("read_file", { path: inA("private", "other.txt") }, { config }),
      "FS_BLOCKED",
    );
  });

  it("The default is FileConfig.DefaultBlockedPaths, the system and credential locations of the platform the JVM runs on.", async () => {
    expect(createFileConfig().blockedPaths).toEqual(defaultBlockedPaths());
    const grant = { fs_read: "all" as const, fs_write: "all" as const };
    if (process.platform === "linux") {
      expectDenied(await call("read_file", { path: "/etc/hostname" }, { grant }), "FS_BLOCKED");
      expectDenied(await call("list_directory", { path: "/proc/self" }, { grant }), "FS_BLOCKED");
    }
    // the agent-configuration list blocks writes only
    await buildTree(ws.allowed, { ".git/hooks/pre-commit": "#!/bin/sh\n" });
    const hook = inA(".git", "hooks", "pre-commit");
    expect(expectResult(await call("read_file", { path: hook })).content).toBe("#!/bin/sh\n");
    expectDenied(await call("write_file", { path: hook, content: "touch PWNED" }), "FS_BLOCKED");
    expect(await readFile(hook, "utf8")).toBe("#!/bin/sh\n");
  });

  it("A blocklist is defence in depth: it cannot name every sensitive file, so set allowedPaths to the directories the agent needs.", async () => {
    await buildTree(ws.root, { "notes/token.txt": "TOKEN" });
    const grant = { fs_read: "all" as const };
    const open = await call("read_file", { path: at("notes", "token.txt") }, { grant });
    expect(expectResult(open).content).toBe("TOKEN");
    const confined = await call(
      "read_file",
      { path: at("notes", "token.txt") },
      { grant, config: { allowedPaths: [ws.allowed] } },
    );
    expectDenied(confined, "FS_OUTSIDE_ALLOWED");
  });
});

describe("seed: followSymlinks", () => {
  beforeEach(async () => {
    await buildTree(ws.allowed, {
      "to-ok": { link: "ok.txt" },
      "sub/x": "x",
      "to-sub": { link: "sub" },
    });
  });

  it("Whether to follow a symbolic link that is the final component of the path (default: false for security).", async () => {
    expect(createFileConfig().followSymlinks).toBe(false);
    expectDenied(await call("read_file", { path: inA("to-ok") }), "FS_NOT_REGULAR");
    const followed = await call(
      "read_file",
      { path: inA("to-ok") },
      { config: { followSymlinks: true } },
    );
    expect(expectResult(followed).content).toBe("OK");
    // a link earlier on the path is always followed (and judged)
    expect(expectResult(await call("read_file", { path: inA("to-sub", "x") })).content).toBe("x");
  });

  it("When false, read_file reports such a link as not a regular file and file_info and list_directory describe the link itself.", async () => {
    const read = await call("read_file", { path: inA("to-ok") });
    expectDenied(read, "FS_NOT_REGULAR");
    expect(read.denials?.[0]?.reason).toContain("symbolic link");
    const info = expectResult(await call("file_info", { path: inA("to-ok") }));
    expect(info).toMatchObject({ type: "symlink", link_target: "ok.txt" });
    const listed = expectResult(await call("list_directory", { path: ws.allowed }));
    expect(listed.entries).toContainEqual({ name: "to-ok", type: "symlink", size: 6 });
  });

  it("This does not decide whether a link may lead out of the allowed area: a link anywhere on the path, final or not, is resolved first, and the path is allowed only if its real location is.", async () => {
    await buildTree(ws.root, {
      "allowed/final-out": { link: path.join(ws.outside, "secret.txt") },
      "allowed/mid-out": { link: ws.outside },
    });
    for (const followSymlinks of [false, true]) {
      const config = { followSymlinks };
      expectDenied(
        await call("read_file", { path: inA("final-out") }, { config }),
        "FS_SYMLINK_ESCAPE",
      );
      expectDenied(
        await call("file_info", { path: inA("final-out") }, { config }),
        "FS_SYMLINK_ESCAPE",
      );
      expectDenied(
        await call("read_file", { path: inA("mid-out", "secret.txt") }, { config }),
        "FS_SYMLINK_ESCAPE",
      );
    }
  });
});

describe("seed: maxFileSize", () => {
  it("Maximum file size to read in bytes (default: 1MB)", async () => {
    const mib = 1024 * 1024;
    await buildTree(ws.allowed, { "fits.txt": "a".repeat(mib), "over.txt": "a".repeat(mib + 1) });
    expect(createFileConfig().maxFileSize).toBe(mib);
    expect(expectResult(await call("read_file", { path: inA("fits.txt") })).size).toBe(mib);
    expectDenied(await call("read_file", { path: inA("over.txt") }), "FS_TOO_LARGE");
    const small = { config: { maxFileSize: 2 } };
    await writeFile(inA("three.txt"), "abc");
    expectDenied(await call("read_file", { path: inA("three.txt") }, small), "FS_TOO_LARGE");
    expect(expectResult(await call("read_file", { path: inA("ok.txt") }, small)).content).toBe(
      "OK",
    );
  });
});

describe("seed (spec §3, issue 4): base directory, **/ patterns", () => {
  it("relative paths resolve against the configured base, never the host's working directory", async () => {
    await buildTree(ws.allowed, { "sub/x.txt": "X" });
    const config = { baseDir: ws.allowed };
    expect(expectResult(await call("read_file", { path: "ok.txt" }, { config })).content).toBe(
      "OK",
    );
    expect(
      expectResult(await call("read_file", { path: "sub/../sub/x.txt" }, { config })).content,
    ).toBe("X");
    expectDenied(
      await call("read_file", { path: "../outside/secret.txt" }, { config }),
      "FS_OUTSIDE_ALLOWED",
    );
    expectDenied(await call("read_file", { path: "ok.txt" }), "FS_NO_BASE_DIR");
  });

  it("**/ patterns block a name at any depth", async () => {
    await buildTree(ws.allowed, {
      "a/b/secrets/k.txt": "CANARY-BLK",
      "secrets-not/k.txt": "PLAIN",
    });
    const config = { blockedPaths: { blocked: ["**/secrets"], writeBlocked: [] } };
    expectDenied(
      await call("read_file", { path: inA("a", "b", "secrets", "k.txt") }, { config }),
      "FS_BLOCKED",
    );
    expectDenied(
      await call("list_directory", { path: inA("a", "b", "secrets") }, { config }),
      "FS_BLOCKED",
    );
    expect(
      expectResult(await call("read_file", { path: inA("secrets-not", "k.txt") }, { config }))
        .content,
    ).toBe("PLAIN");
    const listed = expectResult(await call("list_directory", { path: inA("a", "b") }, { config }));
    expect(listed.entries).toEqual([]);
  });
});
