import { commonShellInputShape } from "@agent-bridle/core";
import * as z from "zod";

/** Timeouts, caps and expansion limits of the safe-subset engine (spec §14, reference §3.4–3.8). */
export interface ShellSafeLimits {
  /** Default 60 s. */
  readonly defaultTimeoutSecs: number;
  /** Default 300 s: a larger `timeout_secs` is rejected, never clamped. */
  readonly maxTimeoutSecs: number;
  /** Per stream; default 1 MiB. */
  readonly maxOutputBytes: number;
  /** Paths one glob may match; more refuses the script (never a silent cut). Default 4096. */
  readonly maxGlobMatches: number;
  /** Variables a script may expand (`$NAME`, `${NAME}`, and `HOME` for `~`). */
  readonly variableAllowlist: readonly string[];
}

export const DEFAULT_SHELL_SAFE_LIMITS: ShellSafeLimits = Object.freeze({
  defaultTimeoutSecs: 60,
  maxTimeoutSecs: 300,
  maxOutputBytes: 1 << 20,
  maxGlobMatches: 4096,
  variableAllowlist: Object.freeze([
    "HOME",
    "PWD",
    "OLDPWD",
    "USER",
    "LOGNAME",
    "TMPDIR",
    "LANG",
    "LC_ALL",
    "SHELL",
    "HOSTNAME",
    "TERM",
  ]),
});

/** The safe engine's input: the common shell input of spec §14 plus the argv form. */
export function shellSafeInputSchema(limits: ShellSafeLimits) {
  return z
    .strictObject({
      program: z
        .string()
        .min(1)
        .max(4096)
        .optional()
        .describe("Argv form: the program (a bare name is looked up on the trusted PATH)."),
      args: z
        .array(z.string().max(1 << 16))
        .max(4096)
        .optional()
        .describe("Argv form: the arguments, taken literally (no globbing, quoting or variables)."),
      cmd: z
        .string()
        .min(1)
        .max(64 * 1024)
        .optional()
        .describe(
          "A command line in the safe subset: pipes, ;, &&, ||, quotes, allowlisted $VAR, ~, globs, redirections > >> < 2> 2>&1.",
        ),
      ...commonShellInputShape(limits),
    })
    .superRefine((input, context) => {
      const hasProgram = input.program !== undefined;
      const hasCmd = input.cmd !== undefined;
      if (hasProgram && hasCmd) {
        context.addIssue({
          code: "custom",
          path: ["cmd"],
          message: "provide exactly one of `program` or `cmd`, not both",
        });
      } else if (!hasProgram && !hasCmd) {
        context.addIssue({
          code: "custom",
          path: ["cmd"],
          message: "provide one of `program` or `cmd`",
        });
      }
      if (input.args !== undefined && !hasProgram) {
        context.addIssue({
          code: "custom",
          path: ["args"],
          message: "`args` may only be used together with `program`",
        });
      }
    });
}

export type ShellSafeInput = z.infer<ReturnType<typeof shellSafeInputSchema>>;
