import type { Code } from "../codes/codes.js";
import type { EnforcementReport } from "../enforcement/enforcement-report.js";
import type { SandboxKind } from "../enforcement/sandbox-kind.js";
import type { Denial } from "../envelope/denial.js";

/**
 * What is recorded inside a call: every decision the registry, the funnel and the
 * engines make. The call's sink adds the call id (`AuditEvent`).
 */
export type AuditRecord =
  | { readonly type: "dispatch-admitted"; readonly tool: string }
  | {
      readonly type: "dispatch-refused";
      readonly tool: string;
      readonly code: Code;
      readonly reason: string;
    }
  | {
      readonly type: "dispatch-finished";
      readonly tool: string;
      readonly outcome: "ran" | "denied" | "failed";
      readonly charged: boolean;
    }
  | { readonly type: "check-denied"; readonly tool: string; readonly denial: Denial }
  | {
      /** A program the call started (`admitted`) or refused to start (`denied`). */
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

/**
 * An event as the host's audit hook receives it: a record with the id of the call it
 * belongs to. Every event of one dispatch, from `dispatch-admitted` (or
 * `dispatch-refused`) to `dispatch-finished`, the spawns, connections and the report in
 * between included, carries the same `callId`; ids are unique within a registry.
 */
export type AuditEvent = AuditRecord & { readonly callId: number };

/** The host's audit hook. */
export interface AuditSink {
  record(event: AuditEvent): void;
}

/** What code inside one call records to. */
export interface CallAuditSink {
  record(event: AuditRecord): void;
}

/** A call's sink as the gate mints it: it stamps the call's id on every record. */
export interface StampedAuditSink extends CallAuditSink {
  readonly callId: number;
  /** The host sink the records go to (compared to tell two hosts' sinks apart). */
  readonly host: AuditSink;
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

/** The sink of the call `callId`: each record reaches `host` with that id. */
export function callAuditSink(host: AuditSink, callId: number): StampedAuditSink {
  return Object.freeze({
    callId,
    host,
    record(event: AuditRecord) {
      host.record({ ...event, callId } as AuditEvent);
    },
  });
}
