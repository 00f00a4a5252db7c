import { mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  type AuditEvent,
  brushSupported,
  caveats,
  defaultPathPolicy,
  type Registry,
  registry,
  shellSelection,
  top,
  userPathPolicy,
} from "../src/index.js";

const made: string[] = [];
afterEach(() => {
  for (const directory of made.splice(0)) rmSync(directory, { recursive: true, force: true });
});
function tempDir(): string {
  const directory = realpathSync(mkdtempSync(join(tmpdir(), "bridle-facade-")));
  made.push(directory);
  return directory;
}

const FS_TOOLS = [
  "directory_tree",
  "edit_file",
  "file_info",
  "list_allowed_directories",
  "list_directory",
  "read_file",
  "search_files",
  "write_file",
];
const onBrushPlatform = process.platform === "linux" || process.platform === "darwin";

function shellSchema(built: Registry): {
  properties?: Record<string, unknown>;
  required?: string[];
} {
  const shell = built.toolDefinitions().find((definition) => definition.name === "shell");
  return (shell?.inputSchema ?? {}) as {
    properties?: Record<string, unknown>;
    required?: string[];
  };
}

describe("registry()", () => {
  it.skipIf(!onBrushPlatform)(
    "holds the fs tools and the bash engine as shell by default on Linux and macOS (case 103)",
    async () => {
      const built = registry();
      expect(built.toolNames()).toEqual([...FS_TOOLS, "shell"].sort());
      const schema = shellSchema(built);
      expect(schema.properties).toHaveProperty("cmd");
      expect(schema.properties).not.toHaveProperty("program");
      expect(schema.required).toEqual(["cmd"]);
      expect(shellSelection()).toMatchObject({ engine: "brush" });
      expect(shellSelection().reason).toContain("brushSupported() is true");
      await built.close();
    },
  );

  it("serves the safe-subset engine by default where the bash engine is not supported (case 103)", async () => {
    const built = registry({ platform: "win32" });
    expect(built.toolNames()).toEqual([...FS_TOOLS, "shell"].sort());
    expect(shellSchema(built).properties).toHaveProperty("program");
    expect(shellSelection({ platform: "win32" })).toMatchObject({ engine: "shell-safe" });
    expect(shellSelection({ platform: "win32" }).reason).toContain("not supported on win32");
    await built.close();
  });

  it("brushSupported() is true exactly on Linux and macOS", () => {
    expect(brushSupported("linux")).toBe(true);
    expect(brushSupported("darwin")).toBe(true);
    for (const platform of ["win32", "freebsd", "openbsd", "sunos", "aix", "android"] as const)
      expect(brushSupported(platform)).toBe(false);
    expect(brushSupported()).toBe(process.platform === "linux" || process.platform === "darwin");
  });

  it("adds the bash engine as shell when chosen, on any platform", async () => {
    const built = registry({ shell: "brush", platform: "win32" });
    expect(shellSchema(built).properties).not.toHaveProperty("program");
    expect(shellSelection({ shell: "brush" })).toMatchObject({ engine: "brush" });
    await built.close();
  });

  it("leaves shell out when asked", async () => {
    const built = registry({ shell: "none" });
    expect(built.toolNames()).toEqual(FS_TOOLS);
    expect(shellSelection({ shell: "none" })).toMatchObject({ engine: "none" });
    await built.close();
  });

  it("adds the host engine as shell only when the host opts in", async () => {
    const built = registry({ shell: "host" });
    expect(built.toolNames()).toEqual([...FS_TOOLS, "shell"].sort());
    const shell = built.toolDefinitions().find((definition) => definition.name === "shell");
    expect(shell?.inputSchema).toMatchObject({ type: "object", properties: { cmd: {} } });
    expect(shell?.description).toContain("bash");
    expect(shellSelection({ shell: "host" })).toMatchObject({ engine: "sandbox-host" });
    await built.close();
  });

  it("adds the safe-subset engine as shell when chosen", async () => {
    const built = registry({ shell: "safe" });
    expect(built.toolNames()).toEqual([...FS_TOOLS, "shell"].sort());
    const shell = built.toolDefinitions().find((definition) => definition.name === "shell");
    expect(shell?.inputSchema).toMatchObject({
      type: "object",
      properties: { program: {}, cmd: {} },
    });
    expect(shellSelection({ shell: "safe" })).toMatchObject({ engine: "shell-safe" });
    await built.close();
  });

  it("can leave out the fs tools and the shell (an empty but valid registry)", async () => {
    const built = registry({ files: false, shell: "none" });
    expect(built.toolNames()).toEqual([]);
    expect(built.toolDefinitions()).toEqual([]);
    await built.close();
  });

  it("resolves relative paths against baseDir and passes FileConfig options through", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "a.txt"), "0123456789");
    const built = registry({ baseDir: dir, files: { maxFileSize: 4 } });
    const grant = caveats({ fs_read: { only: [dir] }, fs_write: "all", exec: "all", net: "all" });
    const result = await built.dispatchOneshot("read_file", { path: "a.txt" }, grant);
    expect(result.denials?.[0]?.code).toBe("FS_TOO_LARGE");
    await built.close();
    expect(() => registry({ baseDir: "relative" })).toThrow(/absolute/);
  });

  it("uses the user's home in its default path policy", () => {
    expect(userPathPolicy()).toEqual(
      defaultPathPolicy({ platform: process.platform, home: homedir() }),
    );
    expect(userPathPolicy().blocked).toContain(join(homedir(), ".ssh"));
  });

  it("blocks the home's credentials even under an all-reaching grant", async () => {
    const home = tempDir();
    const built = registry({
      pathPolicy: defaultPathPolicy({ platform: "linux", home }),
    });
    const result = (await built.dispatchOneshot(
      "read_file",
      { path: join(home, ".ssh", "id_ed25519") },
      top(),
    )) as { denied?: boolean };
    expect(result.denied).toBe(true);
    await built.close();
  });
});

describe("approval and audit hooks", () => {
  it("a refused approval runs nothing and is not charged; the audit hook sees every decision", async () => {
    const dir = tempDir();
    const events: AuditEvent[] = [];
    const requests: unknown[] = [];
    let approve = false;
    const built = registry({
      baseDir: dir,
      approval: (request) => {
        requests.push(request);
        return approve ? true : { approved: false, reason: "not now" };
      },
      audit: { record: (event) => events.push(event) },
    });
    const grant = built.mintGrant(
      caveats({
        fs_read: { only: [dir] },
        fs_write: { only: [dir] },
        exec: "all",
        net: "all",
        max_calls: { at_most: 1 },
      }),
    );
    const refused = await built.dispatch("write_file", { path: "made.txt", content: "x" }, grant);
    expect(refused.denied).toBe(true);
    expect(refused.denials?.[0]).toMatchObject({ code: "APPROVAL_REFUSED" });
    expect(readdirSync(dir)).toEqual([]);
    expect(requests).toEqual([
      {
        tool: "write_file",
        arguments: { path: "made.txt", content: "x", mode: "overwrite", create_parents: false },
      },
    ]);

    approve = true;
    const ran = (await built.dispatch("write_file", { path: "made.txt", content: "x" }, grant)) as {
      result?: { bytes_written: number };
    };
    expect(ran.result?.bytes_written).toBe(1);
    expect(readdirSync(dir)).toEqual(["made.txt"]);
    // The refusal was not charged: the one-call budget was spent by the approved call.
    await expect(built.dispatch("file_info", { path: "made.txt" }, grant)).rejects.toThrow(
      /max_calls/,
    );

    const types = events.map((event) => event.type);
    expect(types).toContain("dispatch-refused");
    expect(types).toContain("dispatch-admitted");
    expect(types).toContain("dispatch-finished");
    await built.close();
  });

  it("gives the host shell's approval hook the arguments, and its runs report human_gate approval_hook", async () => {
    const dir = tempDir();
    const seen: unknown[] = [];
    let approve = false;
    const built = registry({
      shell: "host",
      baseDir: dir,
      approval: (request) => {
        seen.push(request.arguments);
        return approve;
      },
    });
    const refused = (await built.dispatchOneshot("shell", { cmd: "touch marker" }, top())) as {
      denials?: { code: string }[];
    };
    expect(refused.denials?.[0]?.code).toBe("APPROVAL_REFUSED");
    expect(readdirSync(dir)).toEqual([]);
    approve = true;
    const ran = (await built.dispatchOneshot("shell", { cmd: "echo ok" }, top())) as {
      stdout?: string;
      disclosure?: { human_gate?: string };
    };
    expect(ran.stdout).toBe("ok\n");
    expect(ran.disclosure?.human_gate).toBe("approval_hook");
    expect(seen).toEqual([{ cmd: "touch marker" }, { cmd: "echo ok" }]);
    await built.close();
  });

  it("close() closes the registry", async () => {
    const built = registry();
    await built.close();
    await expect(built.dispatchOneshot("read_file", { path: "/x" }, top())).rejects.toThrow(
      /closed/,
    );
  });
});
