import { createDenial } from "../envelope/denial.js";
import { buildDisclosure, type HumanGate } from "../envelope/disclosure.js";
import { buildDeniedEnvelope, type DeniedEnvelope } from "../envelope/envelope.js";
import { isUnbridled } from "../unbridled/unbridled.js";

/** The in-band refusal returned when the approval hook refuses: nothing ran. */
export function approvalDenialEnvelope(
  toolName: string,
  reason: string,
  humanGate: HumanGate,
  elapsedMs: number,
): DeniedEnvelope {
  const denial = createDenial("exec", toolName, "APPROVAL_REFUSED", reason);
  return buildDeniedEnvelope(
    {
      sandboxKind: "none",
      enforcement: {},
      // The refusal is the human gate's own doing, so it is disclosed even when quiet.
      disclosure: buildDisclosure({ unbridled: isUnbridled(), humanGate }) ?? {
        human_gate: humanGate,
      },
      elapsedMs,
    },
    [denial],
  );
}
