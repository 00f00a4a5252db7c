import { commonShellInputShape, type ShellLimits } from "@agent-bridle/core";
import * as z from "zod";

/** The bash engine's input: the common shell input of spec §14 with a full bash `cmd`. */
export function brushInputSchema(limits: ShellLimits) {
  return z.strictObject({
    cmd: z
      .string()
      .min(1)
      .max(1 << 20)
      .describe(
        "The bash script to run: full bash syntax (pipes, loops, functions, substitutions). Every program it starts and every file it opens is checked against the grant.",
      ),
    ...commonShellInputShape(limits),
  });
}

export type BrushInput = z.infer<ReturnType<typeof brushInputSchema>>;
