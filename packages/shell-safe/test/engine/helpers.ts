import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type Caveats,
  caveats,
  DeniedEnvelopeSchema,
  defaultPathPolicy,
  Registry,
  RunEnvelopeSchema,
  type Tool,
} from "@agent-bridle/core";
import { NONE_BACKEND } from "@agent-bridle/sandbox";
import { afterEach } from "vitest";
import { createShellTool, type ShellToolOptions } from "../../src/index.js";

/** Temp directories (real paths) removed after each test. */
export function useTempDirs(): () => string {
  const made: string[] = [];
  afterEach(() => {
    for (const directory of made.splice(0)) rmSync(directory, { recursive: true, force: true });
  });
  return () => {
    const directory = realpathSync(mkdtempSync(join(tmpdir(), "bridle-safe-")));
    made.push(directory);
    return directory;
  };
}

export const HOME = "/nonexistent-home";

/** A registry holding one tool, with the Linux default path policy for a home that exists nowhere. */
export function registryWith<Args, Result>(tool: Tool<Args, Result>) {
  const registry = Registry.builder()
    .tool(tool)
    .pathPolicy(defaultPathPolicy({ platform: "linux", home: HOME }))
    .build();
  const dispatch = (args: unknown, partial: Partial<Caveats> = {}, signal?: AbortSignal) =>
    registry.dispatch(
      tool.name,
      args,
      registry.mintGrant(caveats(partial)),
      signal ? { signal } : {},
    ) as Promise<Record<string, unknown>>;
  return { registry, dispatch };
}

/** The engine with no kernel backend (top-level fs/net grants only), based in `baseDir`. */
export function safeShell(baseDir: string, options: Partial<ShellToolOptions> = {}) {
  return registryWith(
    createShellTool({ home: HOME, tmpdir: "/tmp", baseDir, backend: NONE_BACKEND, ...options }),
  );
}

export const asRun = (value: unknown) => RunEnvelopeSchema.parse(value);
export const asDenied = (value: unknown) => DeniedEnvelopeSchema.parse(value);
