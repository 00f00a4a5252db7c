import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  denialCodes,
  grantJson,
  resultText,
  serverEnv,
  useTempDirs,
  writeConfig,
} from "./helpers.js";
import { refusedStart, startSession, useBuiltServer } from "./mcp-session.js";

// Issue 17 point 2: blocked paths, the base directory and MCP roots, over the SDK's client.
const tempDir = useTempDirs();
const onBrushPlatform = process.platform === "linux" || process.platform === "darwin";
useBuiltServer();

const PROGRAMS = ["/usr/local/bin", "/usr/bin", "/bin"];

/** Every file readable unless the test narrows it; nothing written, run or reached. */
const grant = (partial: Record<string, unknown>) => grantJson({ fs_read: "all", ...partial });

describe("[fs] blockedPaths", () => {
  it("protects a secret inside a shared folder from the fs tools and the shell; its neighbour stays readable", async () => {
    const home = tempDir();
    const dir = tempDir();
    writeFileSync(join(dir, "notes.txt"), "shared notes\n");
    writeFileSync(join(dir, "secret.env"), "TOKEN=canary-51c0\n");
    writeConfig(home, `[fs]\nbaseDir = "${dir}"\nblockedPaths = ["${join(dir, "secret.env")}"]\n`);
    const { client, stderr } = await startSession(
      serverEnv(home, {
        AGENT_BRIDLE_CAVEATS: grant({
          fs_read: { only: [dir, ...PROGRAMS] },
          exec: { only: ["cat"] },
        }),
      }),
    );
    expect(stderr()).toContain("blocked paths (added to the defaults)");
    const neighbour = await client.callTool({
      name: "read_file",
      arguments: { path: "notes.txt" },
    });
    expect(neighbour.isError, resultText(neighbour)).toBe(false);
    const secret = await client.callTool({ name: "read_file", arguments: { path: "secret.env" } });
    expect(secret.isError).toBe(true);
    expect(resultText(secret)).not.toContain("canary");
    // The defaults still hold beside the added entry.
    const etc = await client.callTool({ name: "read_file", arguments: { path: "/etc/hostname" } });
    expect(etc.isError).toBe(true);
    if (!onBrushPlatform) return;
    const shell = await client.callTool({
      name: "shell",
      arguments: { cmd: "cat notes.txt; cat secret.env" },
    });
    expect(resultText(shell)).toContain("shared notes");
    expect(resultText(shell)).not.toContain("canary");
  });

  it("replaces the read defaults only when asked explicitly", async () => {
    const home = tempDir();
    const dir = tempDir();
    writeFileSync(join(dir, "secret.env"), "canary-9d1e\n");
    writeConfig(
      home,
      `[fs]\nreplaceDefaultBlockedPaths = true\nblockedPaths = ["${join(dir, "secret.env")}"]\n`,
    );
    const { client, stderr } = await startSession(
      serverEnv(home, { AGENT_BRIDLE_CAVEATS: grant({}) }),
    );
    expect(stderr()).toContain("(replacing the defaults)");
    const etc = await client.callTool({ name: "read_file", arguments: { path: "/etc/hostname" } });
    expect(etc.isError, resultText(etc)).toBe(false);
    const secret = await client.callTool({
      name: "read_file",
      arguments: { path: join(dir, "secret.env") },
    });
    expect(secret.isError).toBe(true);
    expect(resultText(secret)).not.toContain("canary");
  });

  it("refuses to start on a relative blocked entry, naming the key", async () => {
    const home = tempDir();
    writeConfig(home, '[fs]\nblockedPaths = ["secret.env"]\n');
    const stderr = await refusedStart(serverEnv(home));
    expect(stderr).toContain("[fs] blockedPaths entry");
  });
});

describe("[fs] allowedPaths", () => {
  it("narrows the fs tools within the grant: a granted file outside the allowed paths is refused", async () => {
    const home = tempDir();
    const shared = tempDir();
    const beside = tempDir();
    writeFileSync(join(shared, "in.txt"), "allowed and granted\n");
    writeFileSync(join(beside, "out.txt"), "granted, not allowed: canary-9d21\n");
    writeConfig(home, `[fs]\nallowedPaths = ["${shared}"]\n`);
    const { client } = await startSession(
      serverEnv(home, { AGENT_BRIDLE_CAVEATS: grant({ fs_read: { only: [shared, beside] } }) }),
    );
    // positive control: inside the allowed path
    const inside = await client.callTool({
      name: "read_file",
      arguments: { path: join(shared, "in.txt") },
    });
    expect(inside.isError, resultText(inside)).toBe(false);
    expect(resultText(inside)).toContain("allowed and granted");
    const outside = await client.callTool({
      name: "read_file",
      arguments: { path: join(beside, "out.txt") },
    });
    expect(outside.isError).toBe(true);
    expect(denialCodes(outside)).toEqual(["FS_OUTSIDE_ALLOWED"]);
    expect(resultText(outside)).not.toContain("canary");
    const listed = await client.callTool({ name: "list_allowed_directories", arguments: {} });
    expect(resultText(listed)).toContain(shared);
    expect(resultText(listed)).not.toContain(beside);
  });
});

describe("the JSON client configuration: AGENT_BRIDLE_BASE_DIR and AGENT_BRIDLE_BLOCKED_PATHS", () => {
  it.skipIf(!onBrushPlatform)(
    "runs a shell call without cwd in the base directory and blocks the listed path",
    async () => {
      const dir = tempDir();
      writeFileSync(join(dir, "hello.txt"), "hello from the base\n");
      writeFileSync(join(dir, ".env"), "canary-3b7a\n");
      const { client } = await startSession(
        serverEnv(tempDir(), {
          AGENT_BRIDLE_CAVEATS: grant({
            fs_read: { only: [dir, ...PROGRAMS] },
            fs_write: { only: [dir] },
            exec: { only: ["cat", "touch"] },
          }),
          AGENT_BRIDLE_BASE_DIR: dir,
          AGENT_BRIDLE_BLOCKED_PATHS: join(dir, ".env"),
        }),
      );
      const ran = await client.callTool({
        name: "shell",
        arguments: { cmd: "cat hello.txt; touch made-here" },
      });
      expect(ran.isError, resultText(ran)).toBe(false);
      expect(resultText(ran)).toContain("hello from the base");
      expect(readdirSync(dir).sort()).toEqual([".env", "hello.txt", "made-here"]);
      const secret = await client.callTool({ name: "read_file", arguments: { path: ".env" } });
      expect(secret.isError).toBe(true);
      expect(resultText(secret)).not.toContain("canary");
    },
  );

  it("without a base directory a relative path is refused, and the banner says how to set one", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "hello.txt"), "x");
    const { client, stderr } = await startSession(
      serverEnv(tempDir(), { AGENT_BRIDLE_CAVEATS: grant({}) }),
    );
    expect(stderr()).toContain("AGENT_BRIDLE_BASE_DIR");
    const relative = await client.callTool({ name: "read_file", arguments: { path: "hello.txt" } });
    expect(relative.isError).toBe(true);
    expect(denialCodes(relative)).toEqual(["FS_NO_BASE_DIR"]);
  });
});

describe("MCP roots", () => {
  it("are the base directory and the allowed paths, follow list changes, and never widen the grant", async () => {
    const first = tempDir();
    const second = tempDir();
    const outside = tempDir();
    writeFileSync(join(first, "x.txt"), "in the first root\n");
    writeFileSync(join(second, "x.txt"), "in the second root\n");
    writeFileSync(join(outside, "y.txt"), "granted but outside the roots\n");
    const roots = { current: [first] };
    const { client, stderr } = await startSession(
      serverEnv(tempDir(), {
        AGENT_BRIDLE_CAVEATS: grant({ fs_read: { only: [first, second, outside] } }),
      }),
      { roots },
    );
    const relative = await client.callTool({ name: "read_file", arguments: { path: "x.txt" } });
    expect(relative.isError, resultText(relative)).toBe(false);
    expect(resultText(relative)).toContain("in the first root");
    expect(stderr()).toContain("the client's roots");
    // Granted, but outside the client's roots: refused.
    const beside = await client.callTool({
      name: "read_file",
      arguments: { path: join(outside, "y.txt") },
    });
    expect(beside.isError).toBe(true);

    roots.current = [second];
    await client.sendRootsListChanged();
    await new Promise((resolve) => setTimeout(resolve, 300));
    const moved = await client.callTool({ name: "read_file", arguments: { path: "x.txt" } });
    expect(resultText(moved)).toContain("in the second root");
  });

  it("a root outside the grant grants nothing", async () => {
    const granted = tempDir();
    const root = tempDir();
    writeFileSync(join(root, "z.txt"), "canary-root-0a\n");
    writeFileSync(join(granted, "g.txt"), "granted\n");
    const { client } = await startSession(
      serverEnv(tempDir(), { AGENT_BRIDLE_CAVEATS: grant({ fs_read: { only: [granted] } }) }),
      { roots: { current: [root] } },
    );
    const inRoot = await client.callTool({ name: "read_file", arguments: { path: "z.txt" } });
    expect(inRoot.isError).toBe(true);
    expect(resultText(inRoot)).not.toContain("canary");
    const inGrant = await client.callTool({
      name: "read_file",
      arguments: { path: join(granted, "g.txt") },
    });
    expect(inGrant.isError).toBe(true);
  });
});
