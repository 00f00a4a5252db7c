import type { ShellOutputObserver } from "@agent-bridle/core";
import { createHostBackend, NONE_BACKEND, type ResourceLimits } from "@agent-bridle/sandbox";
import { NOWHERE_HOME, registryWith } from "@agent-bridle-tools/test-kit";
import { afterAll } from "vitest";
import { type BrushShellTool, createBrushShellTool } from "../../src/tool/brush-shell-tool.js";

export interface BrushRegistryOptions {
  /** The host's backend (the launcher, Landlock) instead of none. */
  readonly kernel?: boolean;
  readonly warm?: boolean;
  readonly observer?: ShellOutputObserver;
  readonly maxOutput?: number;
  /** The children's `HOME` (default one that exists nowhere). */
  readonly home?: string;
  /** Limits of each call's tree (default the sandbox's). */
  readonly resourceLimits?: ResourceLimits;
}

/**
 * For one test file: makes a fresh bash tool and a registry holding it per call, and closes
 * every tool it made (their warm workers) after the file's tests.
 */
export function useBrushRegistries() {
  const tools: BrushShellTool[] = [];
  afterAll(async () => {
    for (const tool of tools) await tool.close?.();
  });
  return (options: BrushRegistryOptions = {}) => {
    const tool = createBrushShellTool({
      home: options.home ?? NOWHERE_HOME,
      tmpdir: "/tmp",
      backend: options.kernel ? createHostBackend() : NONE_BACKEND,
      warm: options.warm ?? false,
      ...(options.observer ? { observer: options.observer } : {}),
      ...(options.maxOutput ? { limits: { maxOutputBytes: options.maxOutput } } : {}),
      ...(options.resourceLimits ? { resourceLimits: options.resourceLimits } : {}),
    });
    tools.push(tool);
    return { tool, registry: registryWith(tool).registry };
  };
}
