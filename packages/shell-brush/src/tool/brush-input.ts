import { type BashScriptInput, bashScriptInputSchema, type ShellLimits } from "@agent-bridle/core";

/** The bash engine's input: the common shell input of spec §14 with a full bash `cmd`. */
export function brushInputSchema(limits: ShellLimits) {
  return bashScriptInputSchema(
    limits,
    "The bash script to run: full bash syntax (pipes, loops, functions, substitutions). Every program it starts and every file it opens is checked against the grant.",
  );
}

export type BrushInput = BashScriptInput;
