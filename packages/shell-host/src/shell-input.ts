import { type BashScriptInput, bashScriptInputSchema, type ShellLimits } from "@agent-bridle/core";

/** The host engine's input: the common shell input of spec §14 with a full bash `cmd`. */
export function shellInputSchema(limits: ShellLimits) {
  return bashScriptInputSchema(limits, "The bash script to run (full bash syntax).");
}

export type ShellInput = BashScriptInput;
