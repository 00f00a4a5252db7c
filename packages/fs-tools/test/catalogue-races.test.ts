// Attack catalogue §1, the entries that need a second actor: A20 (a parent directory
// swapped for a symlink in a tight rename loop, by another process) and A18 (a bind mount
// inside the allowed root, in a user and mount namespace of a child process).
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, stat } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { createHarness, expectNoCanary } from "./helpers/harness.js";
import { startSwapper } from "./helpers/swapper.js";
import { buildTree, useWorkspace } from "./helpers/workspace.js";

const ws = useWorkspace();

/** The name of edit_file's temporary file for secret.txt (`tempLocation`). */
const EDIT_LEFTOVER = /^\.secret\.txt\.[0-9a-f]+\.tmp$/;
const EDIT_LEFTOVER_OR_SECRET = /^(secret\.txt|\.secret\.txt\.[0-9a-f]+\.tmp)$/;

function tally(counts: Map<string, number>, key: string) {
  counts.set(key, (counts.get(key) ?? 0) + 1);
}

describe("attack catalogue §1: races and mounts", () => {
  it("A20: 5,000 reads while a parent directory is swapped for a symlink never return CANARY-OUT", async ({
    annotate,
  }) => {
    await buildTree(ws.allowed, { "sub/secret.txt": "DECOY-IN" });
    const swapper = startSwapper("directory", [path.join(ws.allowed, "sub"), ws.outside]);
    const tools = createHarness(ws);
    const counts = new Map<string, number>();
    try {
      for (let call = 0; call < 5000; call++) {
        const value = await tools.call("read_file", {
          path: path.join(ws.allowed, "sub", "secret.txt"),
        });
        expectNoCanary(value);
        tally(
          counts,
          value.result ? `read ${value.result.content}` : (value.denials?.[0]?.code ?? "?"),
        );
      }
    } finally {
      await swapper.stop();
    }
    // Closed, not narrowed, for reads: the mediated open's device/inode check and, on
    // Linux, the kernel's name for the opened descriptor (/proc/self/fd) must both match.
    await annotate(`outcomes of 5,000 reads: ${JSON.stringify(Object.fromEntries(counts))}`);
    expect(
      [...counts.keys()].every((key) => key === "read DECOY-IN" || key.startsWith("FS_")),
    ).toBe(true);
  }, 120_000);

  it("A20 (metadata and listings): file_info and list_directory never describe the outside directory while it is swapped in", async ({
    annotate,
  }) => {
    await buildTree(ws.root, {
      "allowed/sub/secret.txt": "DECOY-IN",
      "outside/only-outside.txt": "CANARY-OUT",
    });
    const swapper = startSwapper("directory", [path.join(ws.allowed, "sub"), ws.outside]);
    const tools = createHarness(ws);
    const counts = new Map<string, number>();
    try {
      for (let call = 0; call < 2000; call++) {
        const info = await tools.call("file_info", {
          path: path.join(ws.allowed, "sub", "secret.txt"),
        });
        if (info.result) expect(info.result.size).toBe("DECOY-IN".length);
        tally(counts, info.result ? "info" : `info ${info.denials?.[0]?.code}`);
        const listed = await tools.call("list_directory", { path: path.join(ws.allowed, "sub") });
        if (listed.result) {
          expect(listed.result.entries.map((entry: { name: string }) => entry.name)).toEqual([
            "secret.txt",
          ]);
        }
        tally(counts, listed.result ? "listed" : `list ${listed.denials?.[0]?.code}`);
      }
    } finally {
      await swapper.stop();
    }
    await annotate(`outcomes: ${JSON.stringify(Object.fromEntries(counts))}`);
  }, 120_000);

  it("A20 (writes): new files written while the parent is swapped never put content outside (RESIDUAL: empty files may be left there)", async ({
    annotate,
  }) => {
    await buildTree(ws.allowed, { sub: { dir: true } });
    const swapper = startSwapper("directory", [path.join(ws.allowed, "sub"), ws.outside]);
    const tools = createHarness(ws);
    const counts = new Map<string, number>();
    try {
      for (let call = 0; call < 1000; call++) {
        const args = {
          path: path.join(ws.allowed, "sub", `n${call}.txt`),
          content: "WRITTEN",
          mode: call % 2 ? "append" : "overwrite",
        };
        const value = await tools
          .call("write_file", args)
          .catch((error: { code: string }) => ({ thrown: error.code }));
        tally(
          counts,
          "thrown" in value
            ? `thrown ${value.thrown}`
            : value.result
              ? "written"
              : (value.denials?.[0]?.code ?? "?"),
        );
      }
    } finally {
      await swapper.stop();
    }
    expect(await readFile(path.join(ws.outside, "secret.txt"), "utf8")).toBe("CANARY-OUT");
    const leftovers = (await readdir(ws.outside)).filter((name) => name !== "secret.txt");
    for (const name of leftovers)
      expect((await stat(path.join(ws.outside, name))).size, name).toBe(0);
    await annotate(
      `outcomes of 1,000 writes: ${JSON.stringify(Object.fromEntries(counts))}; empty files left outside: ${leftovers.length}`,
    );
  }, 120_000);

  it("A20 (the new tools): search_files, directory_tree and edit_file never reach the outside directory while it is swapped in", async ({
    annotate,
  }) => {
    await buildTree(ws.root, {
      "allowed/sub/secret.txt": "DECOY-IN",
      "outside/only-outside.txt": "CANARY-OUT",
      "outside/secret.txt": "CANARY-OUT\nDECOY-IN\n",
    });
    const swapper = startSwapper("directory", [path.join(ws.allowed, "sub"), ws.outside]);
    const tools = createHarness(ws);
    const sub = path.join(ws.allowed, "sub");
    const counts = new Map<string, number>();
    const outcome = (tool: string, value: { result?: unknown; denials?: { code: string }[] }) =>
      tally(counts, value.result ? `${tool} ran` : `${tool} ${value.denials?.[0]?.code}`);
    try {
      for (let call = 0; call < 700; call++) {
        const searched = await tools.call("search_files", { path: sub, query: "CANARY" });
        expectNoCanary(searched);
        if (searched.result) expect(searched.result.matches).toEqual([]);
        outcome("search", searched);
        const listed = await tools.call("directory_tree", { path: sub });
        expectNoCanary(listed);
        if (listed.result) {
          // secret.txt, and any temporary file an edit that lost the race left (below)
          for (const entry of listed.result.entries as { path: string }[])
            expect(entry.path).toMatch(EDIT_LEFTOVER_OR_SECRET);
        }
        outcome("tree", listed);
        // Both the outside and the inside file hold a line the edit would replace; only the
        // inside one may be edited (it is edited back and forth).
        const [from, to] = call % 2 ? ["EDITED", "DECOY-IN"] : ["DECOY-IN", "EDITED"];
        const edited = await tools
          .call("edit_file", {
            path: path.join(sub, "secret.txt"),
            edits: [{ old_text: from, new_text: to }],
          })
          .catch((error: { code: string }) => ({ denials: [{ code: `thrown ${error.code}` }] }));
        expectNoCanary(edited);
        outcome("edit", edited);
      }
    } finally {
      await swapper.stop();
    }
    // Nothing outside changed: the same two files with the same contents. An edit whose
    // directory was swapped between the judgement and the open of its temporary file finds
    // it misplaced, removes it where the kernel says it is, and stops; nothing is ever
    // written into it. RESIDUAL: a second swap between that look and the removal can leave
    // it (empty).
    const outside = (await readdir(ws.outside)).filter((name) => !EDIT_LEFTOVER.test(name));
    expect(outside.sort()).toEqual(["only-outside.txt", "secret.txt"]);
    const leftovers = [
      ...(await readdir(ws.outside)).map((name) => path.join(ws.outside, name)),
      ...(await readdir(path.join(ws.allowed, "sub")).catch(() => [])).map((name) =>
        path.join(ws.allowed, "sub", name),
      ),
    ].filter((file) => EDIT_LEFTOVER.test(path.basename(file)));
    for (const file of leftovers) expect((await stat(file)).size, file).toBe(0);
    expect(await readFile(path.join(ws.outside, "secret.txt"), "utf8")).toBe(
      "CANARY-OUT\nDECOY-IN\n",
    );
    expect(await readFile(path.join(ws.outside, "only-outside.txt"), "utf8")).toBe("CANARY-OUT");
    // A race is an in-band refusal, never a tool failure.
    expect([...counts.keys()].filter((key) => key.includes("thrown"))).toEqual([]);
    // Positive control: during the race the readers did reach the inside directory.
    expect(counts.get("search ran") ?? 0).toBeGreaterThan(0);
    expect(counts.get("tree ran") ?? 0).toBeGreaterThan(0);
    await annotate(
      `outcomes: ${JSON.stringify(Object.fromEntries(counts))}; empty temporary files left: ${leftovers.length}`,
    );
  }, 180_000);

  const distIndex = fileURLToPath(new URL("../dist/index.js", import.meta.url));
  const unshareWorks =
    process.platform === "linux" && spawnSync("unshare", ["-Urm", "true"]).status === 0;
  it.runIf(unshareWorks && existsSync(distIndex))(
    "A18: a bind mount inside the allowed root is RESIDUAL — realpath stays inside, so read_file, search_files, directory_tree and edit_file reach it (pinned; runs in `unshare -Urm` against the built dist, skipped without either)",
    async () => {
      await mkdir(path.join(ws.allowed, "mnt"));
      const script = `
        import { Registry, caveats, only } from "@agent-bridle/core";
        const { createFsTools, createFileConfig } = await import(${JSON.stringify(distIndex)});
        const [allowed] = process.argv.slice(1);
        const tools = createFsTools(createFileConfig());
        const registry = Registry.builder()
          .tool(tools.readFile).tool(tools.searchFiles).tool(tools.directoryTree).tool(tools.editFile)
          .build();
        const grant = registry.mintGrant(
          caveats({ fs_read: only([allowed]), fs_write: only([allowed]) }),
        );
        const mnt = allowed + "/mnt";
        const calls = {
          read: ["read_file", { path: mnt + "/secret.txt" }],
          search: ["search_files", { path: mnt, query: "CANARY" }],
          tree: ["directory_tree", { path: mnt }],
          edit: ["edit_file", {
            path: mnt + "/secret.txt",
            edits: [{ old_text: "CANARY-OUT", new_text: "X" }],
            dry_run: true,
          }],
        };
        const values = {};
        for (const [key, [tool, args]] of Object.entries(calls))
          values[key] = await registry.dispatch(tool, args, grant);
        process.stdout.write(JSON.stringify(values));`;
      const child = spawnSync(
        "unshare",
        [
          "-Urm",
          "sh",
          "-c",
          'mount --bind "$0" "$1/mnt" && exec "$2" --input-type=module -e "$3" "$1"',
          ws.outside,
          ws.allowed,
          process.execPath,
          script,
        ],
        { cwd: fileURLToPath(new URL("..", import.meta.url)), encoding: "utf8", timeout: 20_000 },
      );
      expect(child.status, child.stderr).toBe(0);
      const values = JSON.parse(child.stdout);
      // The optional st_dev mitigation is not taken: a bind of the same file system has the
      // same st_dev, and legitimate mounts inside a workspace are common. SECURITY.md
      // lists bind mounts as a residual. The same holds for every reader, the new ones too.
      expect(values.read.result.content).toBe("CANARY-OUT");
      expect(values.search.result.matches).toEqual([
        { path: path.join(ws.allowed, "mnt/secret.txt"), line: 1, text: "CANARY-OUT" },
      ]);
      expect(values.tree.result.entries).toEqual([{ path: "secret.txt", type: "file", depth: 1 }]);
      expect(values.edit.result.diff).toContain("-CANARY-OUT");
      // the dry run wrote nothing through the mount
      expect(await readFile(path.join(ws.outside, "secret.txt"), "utf8")).toBe("CANARY-OUT");
      expect(existsSync(path.join(ws.allowed, "mnt", "secret.txt"))).toBe(false);
    },
  );
});
