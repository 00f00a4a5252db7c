import * as z from "zod";
import { CODES, type Code } from "../codes/codes.js";

/** What a denial is about: a program to run, a path to open, a host to reach. */
export const DenialKindSchema = z.enum(["exec", "open", "net"]);
export type DenialKind = z.infer<typeof DenialKindSchema>;

/**
 * One refusal, as the model sees it. `target` is the program, path or host (or a label
 * such as `filesystem`, `network`, `confinement`); `reason` names the operation and the
 * violated scope and never echoes file contents or environment values.
 */
export const DenialSchema = z.strictObject({
  kind: DenialKindSchema,
  target: z.string(),
  reason: z.string(),
  code: z.enum(CODES as [Code, ...Code[]]),
});
export type Denial = z.infer<typeof DenialSchema>;

export function createDenial(kind: DenialKind, target: string, code: Code, reason: string): Denial {
  return Object.freeze({
    kind,
    target,
    reason: reason.startsWith("denied: ") ? reason : `denied: ${reason}`,
    code,
  });
}
