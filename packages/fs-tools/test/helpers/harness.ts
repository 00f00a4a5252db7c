import {
  type AuditEvent,
  type Caveats,
  caveats,
  type Grant,
  only,
  type PathPolicy,
  Registry,
} from "@agent-bridle/core";
import { expect } from "vitest";
import { createFileConfig, createFsTools, type FileConfigOptions } from "../../src/index.js";
import type { Workspace } from "./workspace.js";

/** A registry policy that blocks nothing, so a test sees only the FileConfig rules. */
export const NO_BLOCKS: PathPolicy = Object.freeze({ blocked: [], writeBlocked: [] });

export interface HarnessOptions {
  readonly config?: FileConfigOptions;
  /** The grant's caveats; default: fs_read and fs_write `only[$A]`, exec and net `only[]`. */
  readonly grant?: Partial<Caveats>;
  /** The registry's policy; default `NO_BLOCKS`. */
  readonly policy?: PathPolicy;
}

/** A registry holding the fs tools, a grant, and a way to call them. */
export interface Harness {
  readonly registry: Registry;
  readonly grant: Grant;
  readonly audit: AuditEvent[];
  call(tool: string, args: unknown): Promise<ToolResultValue>;
}

export interface ToolResultValue {
  readonly schema_version: number;
  readonly sandbox_kind: string;
  readonly enforcement?: Record<string, string>;
  readonly elapsed_ms: number;
  readonly denied?: true;
  readonly denials?: { kind: string; target: string; reason: string; code: string }[];
  // biome-ignore lint/suspicious/noExplicitAny: results are checked against core's schemas
  readonly result?: any;
}

export function createHarness(workspace: Workspace, options: HarnessOptions = {}): Harness {
  const tools = createFsTools(createFileConfig(options.config ?? {}));
  const audit: AuditEvent[] = [];
  const registry = Registry.builder()
    .tool(tools.readFile)
    .tool(tools.listDirectory)
    .tool(tools.fileInfo)
    .tool(tools.writeFile)
    .tool(tools.editFile)
    .tool(tools.searchFiles)
    .tool(tools.directoryTree)
    .tool(tools.listAllowedDirectories)
    .pathPolicy(options.policy ?? NO_BLOCKS)
    .audit({ record: (event) => audit.push(event) })
    .build();
  const grant = registry.mintGrant(
    caveats({
      fs_read: only([workspace.allowed]),
      fs_write: only([workspace.allowed]),
      exec: only([]),
      net: only([]),
      max_calls: "unlimited",
      valid_for_generation: "all",
      ...options.grant,
    }),
  );
  return {
    registry,
    grant,
    audit,
    call: async (tool, args) => (await registry.dispatch(tool, args, grant)) as ToolResultValue,
  };
}

/** The catalogue's blocked list for `$B` on top of the default FileConfig policy. */
export function withBlocked(...paths: string[]): FileConfigOptions["blockedPaths"] {
  const { blockedPaths } = createFileConfig();
  return {
    blocked: [...blockedPaths.blocked, ...paths],
    writeBlocked: [...blockedPaths.writeBlocked],
  };
}

/** Asserts an in-band denial with this code, and that no canary leaked into it. */
export function expectDenied(value: ToolResultValue, code: string): void {
  expect(value.result, JSON.stringify(value)).toBeUndefined();
  expect(value.denied).toBe(true);
  expect(value.denials?.map((denial) => denial.code)).toEqual([code]);
  expectNoCanary(value);
}

export function expectNoCanary(value: unknown): void {
  const text = JSON.stringify(value);
  expect(text).not.toContain("CANARY-OUT");
  expect(text).not.toContain("CANARY-BLK");
}

/** The result of a call that ran, with no denial. */
// biome-ignore lint/suspicious/noExplicitAny: results are checked against core's schemas
export function expectResult(value: ToolResultValue): any {
  expect(value.denials, JSON.stringify(value)).toBeUndefined();
  expect(value.result).toBeDefined();
  return value.result;
}
