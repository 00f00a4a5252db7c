// The tools through a core Registry: dispatch, charging, argument validation, the result
// shapes of spec §4 (validated with core's schemas), the definitions a model sees, the
// audit trail, and the registry's own path policy applied on top of FileConfig's.
import { lstat } from "node:fs/promises";
import path from "node:path";
import {
  atMost,
  caveats,
  FileInfoToolResultSchema,
  ListDirectoryToolResultSchema,
  only,
  ReadFileToolResultSchema,
  Registry,
  top,
  WriteFileToolResultSchema,
} from "@agent-bridle/core";
import { describe, expect, it } from "vitest";
import { createFileConfig, createFsTools } from "../src/index.js";
import { createHarness, expectDenied, expectResult, NO_BLOCKS } from "./helpers/harness.js";
import { buildTree, useWorkspace } from "./helpers/workspace.js";

const ws = useWorkspace(() => ({ "sub/x.txt": "X" }));

const SCHEMAS = {
  read_file: ReadFileToolResultSchema,
  list_directory: ListDirectoryToolResultSchema,
  file_info: FileInfoToolResultSchema,
  write_file: WriteFileToolResultSchema,
} as const;

describe("through a Registry", () => {
  it("every result and every denial is exactly core's shape for its tool (golden shapes)", async () => {
    const tools = createHarness(ws);
    const calls: [keyof typeof SCHEMAS, Record<string, unknown>][] = [
      ["read_file", { path: path.join(ws.allowed, "ok.txt") }],
      [
        "read_file",
        { path: path.join(ws.allowed, "ok.txt"), range: { unit: "lines", start: 1, end: 1 } },
      ],
      ["read_file", { path: path.join(ws.outside, "secret.txt") }],
      ["list_directory", { path: ws.allowed }],
      ["list_directory", { path: ws.outside }],
      ["file_info", { path: path.join(ws.allowed, "sub") }],
      ["file_info", { path: path.join(ws.allowed, "missing") }],
      ["write_file", { path: path.join(ws.allowed, "w.txt"), content: "W" }],
      ["write_file", { path: path.join(ws.outside, "w.txt"), content: "W" }],
    ];
    for (const [tool, args] of calls) {
      const value = await tools.call(tool, args);
      expect(SCHEMAS[tool].parse(value), tool).toEqual(value);
      expect(value).toMatchObject({ schema_version: 1, sandbox_kind: "none" });
      // Only the axes an fs tool touches: it never spawns or connects (issue 17 point 10),
      // although this grant restricts exec and net too.
      expect(value.enforcement).toEqual({ fs_read: "interceptor", fs_write: "interceptor" });
      expect(Object.keys(value).sort()).toEqual(
        value.denied
          ? ["denials", "denied", "elapsed_ms", "enforcement", "sandbox_kind", "schema_version"]
          : ["elapsed_ms", "enforcement", "result", "sandbox_kind", "schema_version"],
      );
    }
  });

  it("reports only restricted axes: a top() grant leaves write_file with no report, read tools with fs_write (their ceiling)", async () => {
    const tools = createHarness(ws, { grant: top() });
    const written = await tools.call("write_file", {
      path: path.join(ws.allowed, "w.txt"),
      content: "W",
    });
    expect(written.enforcement).toBeUndefined();
    const read = await tools.call("read_file", { path: path.join(ws.allowed, "ok.txt") });
    expect(read.enforcement).toEqual({ fs_write: "interceptor" });
  });

  it("pre-run denials are not charged; calls that ran are", async () => {
    const tools = createHarness(ws, { grant: { max_calls: atMost(2) } });
    for (let attempt = 0; attempt < 5; attempt++) {
      expectDenied(
        await tools.call("read_file", { path: path.join(ws.outside, "secret.txt") }),
        "FS_OUTSIDE_ALLOWED",
      );
      expectDenied(await tools.call("read_file", { path: ws.allowed }), "FS_NOT_REGULAR");
    }
    expectResult(await tools.call("read_file", { path: path.join(ws.allowed, "ok.txt") }));
    expectResult(await tools.call("list_directory", { path: ws.allowed }));
    await expect(
      tools.call("read_file", { path: path.join(ws.allowed, "ok.txt") }),
    ).rejects.toMatchObject({
      code: "BUDGET_EXHAUSTED",
    });
  });

  it("invalid arguments are thrown INVALID_ARGUMENTS naming the field, before anything runs or is charged", async () => {
    const tools = createHarness(ws, { grant: { max_calls: atMost(1) } });
    const target = path.join(ws.allowed, "new.txt");
    const cases: [string, unknown, string][] = [
      ["read_file", {}, "path"],
      ["read_file", { path: 7 }, "path"],
      ["read_file", { path: "" }, "path"],
      ["read_file", { path: "/x", extra: true }, "(arguments)"],
      ["read_file", { path: "/x", range: { unit: "bytes", start: 0 } }, "range.end"],
      ["list_directory", { path: "/x", limit: -1 }, "limit"],
      ["write_file", { path: target }, "content"],
      ["write_file", { path: target, content: "x", mode: "truncate" }, "mode"],
      ["file_info", { path: "x".repeat(40_000) }, "path"],
    ];
    for (const [tool, args, field] of cases) {
      await expect(tools.call(tool, args), JSON.stringify(args).slice(0, 80)).rejects.toMatchObject(
        {
          code: "INVALID_ARGUMENTS",
          field,
        },
      );
    }
    await expect(lstat(target)).rejects.toThrow();
    expectResult(await tools.call("read_file", { path: path.join(ws.allowed, "ok.txt") }));
  });

  it("judges by the grant and FileConfig together: allowedPaths cannot widen the grant", async () => {
    const tools = createHarness(ws, { config: { allowedPaths: [ws.root] } });
    expectDenied(
      await tools.call("read_file", { path: path.join(ws.outside, "secret.txt") }),
      "FS_OUTSIDE_ALLOWED",
    );
  });

  it("applies the registry's PathPolicy in addition to FileConfig.blockedPaths", async () => {
    const tools = createHarness(ws, {
      config: { blockedPaths: { blocked: [], writeBlocked: [] } },
      policy: { blocked: [ws.blocked], writeBlocked: ["**/sub"] },
    });
    expectDenied(
      await tools.call("read_file", { path: path.join(ws.blocked, "key.txt") }),
      "FS_BLOCKED",
    );
    expect(
      expectResult(await tools.call("read_file", { path: path.join(ws.allowed, "sub", "x.txt") }))
        .content,
    ).toBe("X");
    expectDenied(
      await tools.call("write_file", { path: path.join(ws.allowed, "sub", "x.txt"), content: "Y" }),
      "FS_BLOCKED",
    );
  });

  it("without a host policy, the registry's own default still blocks system locations", async () => {
    const tools = createFsTools(
      createFileConfig({ blockedPaths: { blocked: [], writeBlocked: [] } }),
    );
    const registry = Registry.builder().tool(tools.readFile).build();
    const grant = registry.mintGrant(
      caveats({ fs_read: "all", fs_write: "all", exec: "all", net: "all" }),
    );
    if (process.platform === "linux") {
      const value = await registry.dispatch("read_file", { path: "/etc/hostname" }, grant);
      expect(value.denials?.[0]?.code).toBe("FS_BLOCKED");
    }
  });

  it("records each refusal in the audit sink, uncharged", async () => {
    const tools = createHarness(ws);
    await tools.call("read_file", { path: path.join(ws.outside, "secret.txt") });
    expect(tools.audit).toContainEqual(
      expect.objectContaining({
        type: "check-denied",
        tool: "read_file",
        denial: expect.objectContaining({ code: "FS_OUTSIDE_ALLOWED" }),
      }),
    );
    expect(tools.audit).toContainEqual(
      expect.objectContaining({
        type: "dispatch-finished",
        tool: "read_file",
        outcome: "denied",
        charged: false,
      }),
    );
  });

  it("denial reasons say what to do, quote the path as sent, and never carry file contents", async () => {
    await buildTree(ws.allowed, { "big.txt": "SECRET-CONTENT ".repeat(100) });
    const tools = createHarness(ws, { config: { maxFileSize: 100 } });
    const value = await tools.call("read_file", { path: path.join(ws.allowed, "big.txt") });
    expectDenied(value, "FS_TOO_LARGE");
    const [denial] = value.denials ?? [];
    expect(denial).toMatchObject({ kind: "open", target: path.join(ws.allowed, "big.txt") });
    expect(denial?.reason).toMatch(/^denied: read of ".*big\.txt": .*range/);
    expect(JSON.stringify(value)).not.toContain("SECRET-CONTENT");
    const relative = await createHarness(ws, { config: { baseDir: ws.allowed } }).call(
      "read_file",
      { path: "../outside/secret.txt" },
    );
    expect(relative.denials?.[0]?.target).toBe("../outside/secret.txt");
  });

  it("advertises each tool with a description, an input schema with its limits, and MCP annotations", () => {
    const tools = createFsTools(
      createFileConfig({ maxListEntries: 500, maxWriteSize: 2048, baseDir: "/srv/work" }),
    );
    const registry = Registry.builder()
      .tool(tools.readFile)
      .tool(tools.listDirectory)
      .tool(tools.fileInfo)
      .tool(tools.writeFile)
      .pathPolicy(NO_BLOCKS)
      .build();
    const definitions = Object.fromEntries(
      registry.toolDefinitions().map((each) => [each.name, each]),
    );
    expect(Object.keys(definitions)).toEqual([
      "file_info",
      "list_directory",
      "read_file",
      "write_file",
    ]);
    for (const name of ["read_file", "list_directory", "file_info"]) {
      expect(definitions[name]?.annotations).toMatchObject({
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      });
      expect(definitions[name]?.description).toContain('"/srv/work"');
    }
    expect(definitions.write_file?.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: false,
    });
    const schemaText = JSON.stringify(registry.toolDefinitions().map((each) => each.inputSchema));
    expect(schemaText).toContain('"maxLength":32767');
    expect(schemaText).toContain('"maximum":500');
    expect(schemaText).toContain('"maxLength":2048');
  });

  it("write_file names the agent-configuration block only when the configuration has it", () => {
    expect(createFsTools().writeFile.description).toContain(".git/hooks");
    const bare = createFsTools(
      createFileConfig({ blockedPaths: { blocked: [], writeBlocked: [] } }),
    );
    expect(bare.writeFile.description).not.toContain(".git/hooks");
  });

  it("a read tool's context holds no write authority (required ceiling fs_write: only[])", async () => {
    expect(createFsTools().readFile.required.fs_write).toEqual(only([]));
    expect(createFsTools().writeFile.required).toEqual(top());
  });
});
