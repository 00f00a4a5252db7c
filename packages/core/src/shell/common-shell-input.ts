import * as z from "zod";
import type { ToolAnnotations } from "../tool/tool-annotations.js";

/** Timeouts and caps every shell engine shares (spec §14). */
export interface ShellLimits {
  /** Default 60 s. */
  readonly defaultTimeoutSecs: number;
  /** Default 300 s: a larger `timeout_secs` is rejected, never clamped. */
  readonly maxTimeoutSecs: number;
  /** Per stream; default 1 MiB. */
  readonly maxOutputBytes: number;
}

export const DEFAULT_SHELL_LIMITS: ShellLimits = Object.freeze({
  defaultTimeoutSecs: 60,
  maxTimeoutSecs: 300,
  maxOutputBytes: 1 << 20,
});

/**
 * The common shell input of spec §14 besides the script itself: `cwd`, `env` and
 * `timeout_secs` (> 0, at most the configured maximum: rejected with a message naming
 * it, never clamped). Each engine adds its own `cmd` (and the safe engine `program`+`args`).
 */
export function commonShellInputShape(limits: ShellLimits) {
  return {
    cwd: z
      .string()
      .min(1)
      .max(4096)
      .optional()
      .describe("Absolute working directory; default: the tool's configured base directory."),
    env: z
      .record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/), z.string().max(1 << 16))
      .optional()
      .describe(
        "Extra environment variables (helper-choosing variables such as GIT_*, PAGER are dropped).",
      ),
    timeout_secs: z
      .number()
      .positive()
      .max(limits.maxTimeoutSecs, {
        message: `timeout_secs must be at most ${limits.maxTimeoutSecs}`,
      })
      .optional()
      .describe(
        `Seconds before the whole process tree is killed; default ${limits.defaultTimeoutSecs}.`,
      ),
  };
}

/**
 * The input of an engine that runs a whole bash script: `cmd` (1 byte to 1 MiB, described
 * to the model in the engine's words) and the common shell input.
 */
export function bashScriptInputSchema(limits: ShellLimits, cmdDescription: string) {
  return z.strictObject({
    cmd: z
      .string()
      .min(1)
      .max(1 << 20)
      .describe(cmdDescription),
    ...commonShellInputShape(limits),
  });
}

export type BashScriptInput = z.infer<ReturnType<typeof bashScriptInputSchema>>;

/** What every shell engine tells a client about its tool: it writes, destroys, and reaches out. */
export const SHELL_TOOL_ANNOTATIONS: ToolAnnotations = Object.freeze({
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: true,
});
