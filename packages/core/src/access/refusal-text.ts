import { errnoText } from "./errno-text.js";
import type { GateRefusal } from "./gate-outcome.js";

/** A gate refusal in the C library's words: a policy denial reads as the permission error. */
export function refusalText(refusal: GateRefusal): string {
  return errnoText("denial" in refusal ? "EACCES" : refusal.errno);
}
