import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Caveats, caveats, defaultPathPolicy, Registry, type Tool } from "@agent-bridle/core";
import { afterEach } from "vitest";

/** Temp directories (real paths) removed after each test. */
export function useTempDirs(): () => string {
  const made: string[] = [];
  afterEach(() => {
    for (const directory of made.splice(0)) rmSync(directory, { recursive: true, force: true });
  });
  return () => {
    const directory = realpathSync(mkdtempSync(join(tmpdir(), "bridle-host-")));
    made.push(directory);
    return directory;
  };
}

/** A registry holding one tool, with the Linux default path policy for a home that exists nowhere. */
export function registryWith<Args, Result>(tool: Tool<Args, Result>) {
  const registry = Registry.builder()
    .tool(tool)
    .pathPolicy(defaultPathPolicy({ platform: "linux", home: "/nonexistent-home" }))
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
