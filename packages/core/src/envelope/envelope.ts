import * as z from "zod";
import {
  type EnforcementReport,
  EnforcementReportSchema,
} from "../enforcement/enforcement-report.js";
import { type SandboxKind, SandboxKindSchema } from "../enforcement/sandbox-kind.js";
import { type Denial, DenialSchema } from "./denial.js";
import { type Disclosure, DisclosureSchema } from "./disclosure.js";
import { SCHEMA_VERSION } from "./schema-version.js";

const commonShape = {
  schema_version: z.literal(SCHEMA_VERSION),
  sandbox_kind: SandboxKindSchema,
  enforcement: EnforcementReportSchema.optional(),
  disclosure: DisclosureSchema.optional(),
  elapsed_ms: z.number().nonnegative(),
};

/** Opaque here: the inspection schema is owned by the engine that produces it. */
const ShellInspectionSchema = z.record(z.string(), z.unknown());

/** A run that happened (charged): process outcome, capture flags, denials recorded during it. */
export const RunEnvelopeSchema = z.strictObject({
  ...commonShape,
  exit_code: z.number().int(),
  stdout: z.string(),
  stderr: z.string(),
  timed_out: z.boolean(),
  stdout_truncated: z.boolean(),
  stderr_truncated: z.boolean(),
  denied: z.literal(true).optional(),
  denials: z.array(DenialSchema).min(1).optional(),
});
export type RunEnvelope = z.infer<typeof RunEnvelopeSchema>;

/** A pre-run refusal (not charged): nothing ran, so no process fields. */
export const DeniedEnvelopeSchema = z.strictObject({
  ...commonShape,
  denied: z.literal(true),
  denials: z.array(DenialSchema).min(1),
  shell_inspection: ShellInspectionSchema.optional(),
});
export type DeniedEnvelope = z.infer<typeof DeniedEnvelopeSchema>;

export const ToolEnvelopeSchema = z.union([RunEnvelopeSchema, DeniedEnvelopeSchema]);
export type ToolEnvelope = z.infer<typeof ToolEnvelopeSchema>;

/** The facts every envelope carries, whatever the outcome. */
export interface EnvelopeContext {
  readonly sandboxKind: SandboxKind;
  readonly enforcement: EnforcementReport;
  readonly disclosure: Disclosure | undefined;
  readonly elapsedMs: number;
}

function commonFields(context: EnvelopeContext) {
  return {
    schema_version: SCHEMA_VERSION,
    sandbox_kind: context.sandboxKind,
    ...(Object.keys(context.enforcement).length > 0
      ? { enforcement: { ...context.enforcement } }
      : {}),
    ...(context.disclosure ? { disclosure: context.disclosure } : {}),
    elapsed_ms: Math.max(0, Math.round(context.elapsedMs)),
  };
}

export interface RunOutcome {
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
  readonly timedOut: boolean;
  readonly stdoutTruncated: boolean;
  readonly stderrTruncated: boolean;
  readonly denials: readonly Denial[];
}

/** Builds a run envelope: `denied`/`denials` only when something was denied during the run. */
export function buildRunEnvelope(context: EnvelopeContext, outcome: RunOutcome): RunEnvelope {
  return {
    ...commonFields(context),
    exit_code: outcome.exitCode,
    stdout: outcome.stdout,
    stderr: outcome.stderr,
    timed_out: outcome.timedOut,
    stdout_truncated: outcome.stdoutTruncated,
    stderr_truncated: outcome.stderrTruncated,
    ...(outcome.denials.length > 0 ? { denied: true as const, denials: [...outcome.denials] } : {}),
  };
}

/** Builds a pre-run refusal envelope. */
export function buildDeniedEnvelope(
  context: EnvelopeContext,
  denials: readonly [Denial, ...Denial[]],
  shellInspection?: Record<string, unknown>,
): DeniedEnvelope {
  return {
    ...commonFields(context),
    denied: true,
    denials: [...denials],
    ...(shellInspection ? { shell_inspection: shellInspection } : {}),
  };
}
