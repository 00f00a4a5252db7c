import { DeniedEnvelopeSchema, RunEnvelopeSchema } from "@agent-bridle/core";
import { NONE_BACKEND } from "@agent-bridle/sandbox";
import { NOWHERE_HOME, registryWith, useTempDirs as tempDirs } from "@agent-bridle-tools/test-kit";
import { createShellTool, type ShellToolOptions } from "../../src/index.js";

/** Temp directories (real paths) removed after each test. */
export const useTempDirs = () => tempDirs("bridle-safe-");

export const HOME = NOWHERE_HOME;
export { registryWith };

/** The engine with no kernel backend (top-level fs/net grants only), based in `baseDir`. */
export function safeShell(baseDir: string, options: Partial<ShellToolOptions> = {}) {
  return registryWith(
    createShellTool({ home: HOME, tmpdir: "/tmp", baseDir, backend: NONE_BACKEND, ...options }),
  );
}

export const asRun = (value: unknown) => RunEnvelopeSchema.parse(value);
export const asDenied = (value: unknown) => DeniedEnvelopeSchema.parse(value);
