/**
 * The audit sink of a pre-started worker's launch. The worker is started after one call
 * for the next, so what its launch records (the worker's spawn, its connections, the
 * report when it ends) belongs to the call that takes it: records wait here until a
 * call takes the worker, then go to that call's sink, with its id.
 */
import type { AuditRecord, AuditSink, StampedAuditSink } from "@agent-bridle/core";

export interface DeferredAudit extends StampedAuditSink {
  /** From now on records go to `target`, and those held so far are handed over first. */
  bind(target: StampedAuditSink): void;
}

export function deferredAudit(host: AuditSink): DeferredAudit {
  const held: AuditRecord[] = [];
  let target: StampedAuditSink | undefined;
  return Object.freeze({
    host,
    get callId() {
      return target?.callId ?? 0;
    },
    record(event: AuditRecord) {
      if (target === undefined) held.push(event);
      else target.record(event);
    },
    bind(next: StampedAuditSink) {
      target = next;
      for (const event of held.splice(0)) next.record(event);
    },
  });
}
