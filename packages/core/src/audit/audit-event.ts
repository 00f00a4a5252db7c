import type { Code } from "../codes/codes.js";
import type { EnforcementReport } from "../enforcement/enforcement-report.js";
import type { SandboxKind } from "../enforcement/sandbox-kind.js";
import type { Denial } from "../envelope/denial.js";

/** Every decision the registry, the funnel and the engines make, for the host's audit hook. */
export type AuditEvent =
  | { readonly type: "dispatch-admitted"; readonly tool: string; readonly callId: number }
  | {
      readonly type: "dispatch-refused";
      readonly tool: string;
      readonly code: Code;
      readonly reason: string;
    }
  | {
      readonly type: "dispatch-finished";
      readonly tool: string;
      readonly callId: number;
      readonly outcome: "ran" | "denied" | "failed";
      readonly charged: boolean;
    }
  | { readonly type: "check-denied"; readonly tool: string; readonly denial: Denial }
  | {
      readonly type: "spawn";
      readonly tool: string;
      readonly argv: readonly string[];
      readonly decision: "admitted" | "denied";
      readonly code?: Code;
    }
  | {
      /** One connection through a call's egress proxy (network.md §3). */
      readonly type: "net";
      readonly tool: string;
      readonly host: string;
      readonly port: number;
      readonly decision: "allowed" | "denied";
      readonly code?: Code;
      /** Bytes from the program to the host, and back; 0 for a refusal. */
      readonly bytes_out: number;
      readonly bytes_in: number;
    }
  | {
      readonly type: "report";
      readonly tool: string;
      readonly sandbox_kind: SandboxKind;
      readonly enforcement: EnforcementReport;
    };

export interface AuditSink {
  record(event: AuditEvent): void;
}

export const NULL_AUDIT_SINK: AuditSink = Object.freeze({ record() {} });

/** Wraps a host sink so a throwing sink never changes a decision or a result. */
export function containAuditSink(sink: AuditSink): AuditSink {
  return Object.freeze({
    record(event: AuditEvent) {
      try {
        sink.record(Object.freeze(event));
      } catch {
        // An audit hook's failure is the host's; it must not alter the call.
      }
    },
  });
}
