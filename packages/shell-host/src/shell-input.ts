import { commonShellInputShape, type ShellLimits } from "@agent-bridle/core";
import * as z from "zod";

/** The host engine's input: the common shell input of spec §14 with a full bash `cmd`. */
export function shellInputSchema(limits: ShellLimits) {
  return z.strictObject({
    cmd: z
      .string()
      .min(1)
      .max(1 << 20)
      .describe("The bash script to run (full bash syntax)."),
    ...commonShellInputShape(limits),
  });
}

export type ShellInput = z.infer<ReturnType<typeof shellInputSchema>>;
