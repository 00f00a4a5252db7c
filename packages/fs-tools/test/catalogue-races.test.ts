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

  const distIndex = fileURLToPath(new URL("../dist/index.js", import.meta.url));
  const unshareWorks =
    process.platform === "linux" && spawnSync("unshare", ["-Urm", "true"]).status === 0;
  it.runIf(unshareWorks && existsSync(distIndex))(
    "A18: a bind mount inside the allowed root is RESIDUAL — realpath stays inside, so the read succeeds (pinned; runs in `unshare -Urm` against the built dist, skipped without either)",
    async () => {
      await mkdir(path.join(ws.allowed, "mnt"));
      const script = `
        import { Registry, caveats, only } from "@agent-bridle/core";
        const { createFsTools, createFileConfig } = await import(${JSON.stringify(distIndex)});
        const [allowed] = process.argv.slice(1);
        const tools = createFsTools(createFileConfig());
        const registry = Registry.builder().tool(tools.readFile).build();
        const grant = registry.mintGrant(caveats({ fs_read: only([allowed]), fs_write: only([]) }));
        const value = await registry.dispatch("read_file", { path: allowed + "/mnt/secret.txt" }, grant);
        process.stdout.write(JSON.stringify(value));`;
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
      const value = JSON.parse(child.stdout);
      // The optional st_dev mitigation is not taken: a bind of the same file system has the
      // same st_dev, and legitimate mounts inside a workspace are common. SECURITY.md
      // lists bind mounts as a residual.
      expect(value.result.content).toBe("CANARY-OUT");
      expect(existsSync(path.join(ws.allowed, "mnt", "secret.txt"))).toBe(false);
    },
  );
});
