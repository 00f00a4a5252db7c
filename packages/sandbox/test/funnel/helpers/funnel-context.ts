import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type AuditEvent,
  type AuditSink,
  type Caveats,
  caveats,
  defaultPathPolicy,
  type EnforcementFloor,
  Gate,
  type PathPolicy,
  type ToolContext,
  top,
} from "@agent-bridle/core";
import { afterEach } from "vitest";

export interface RecordingAudit extends AuditSink {
  readonly events: AuditEvent[];
}

export function recordingAudit(): RecordingAudit {
  const events: AuditEvent[] = [];
  return { events, record: (event) => events.push(event) };
}

export const TEST_PATH_POLICY: PathPolicy = defaultPathPolicy({
  platform: "linux",
  home: "/nonexistent-home",
});

/** A context the way the registry mints one (the Gate), for funnel-level tests. */
export function contextFor(
  partial: Partial<Caveats> = {},
  options: { audit?: AuditSink; floor?: EnforcementFloor; pathPolicy?: PathPolicy } = {},
): ToolContext {
  const gate = new Gate({
    pathPolicy: options.pathPolicy ?? TEST_PATH_POLICY,
    ...(options.audit ? { audit: options.audit } : {}),
    ...(options.floor ? { floor: options.floor } : {}),
  });
  return gate.authorize(
    { name: "funnel-test", required: top() },
    caveats({ ...top(), ...partial }),
  );
}

/** A fresh temp directory per test, removed afterwards. */
export function useTempDir(): () => string {
  let current: string | undefined;
  afterEach(() => {
    if (current) rmSync(current, { recursive: true, force: true });
    current = undefined;
  });
  return () => {
    current ??= mkdtempSync(join(tmpdir(), "funnel-test-"));
    return current;
  };
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
