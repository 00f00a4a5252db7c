import { BridleError } from "agent-bridle";
import {
  type CappedOutput,
  capForModel,
  cappedText,
  DEFAULT_MODEL_OUTPUT_BYTES,
} from "./model-output.js";

interface Denialish {
  readonly reason?: unknown;
  readonly code?: unknown;
  readonly target?: unknown;
}

interface Envelopeish {
  readonly denied?: unknown;
  readonly denials?: readonly Denialish[];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The reasons of an envelope's denials, joined with `; ` (reference §11.4). */
export function denialText(envelope: Envelopeish): string {
  const reasons = (envelope.denials ?? [])
    .map((denial) => (typeof denial.reason === "string" ? denial.reason : undefined))
    .filter((reason): reason is string => reason !== undefined);
  return reasons.length > 0 ? reasons.join("; ") : "denied: the call was refused";
}

/** An MCP tool result (`CallToolResult`) for one dispatch outcome. */
export interface ToolResult {
  [key: string]: unknown;
  content: { type: "text"; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError: boolean;
}

export interface RenderOptions {
  /** UTF-8 bytes of each of stdout and stderr a model receives; head and tail are kept. */
  readonly maxModelOutputBytes?: number | undefined;
}

/** A run happened: the envelope has a process outcome. */
function isRun(envelope: Record<string, unknown>): boolean {
  return typeof envelope.exit_code === "number";
}

function denialLines(envelope: Record<string, unknown>): string[] {
  const denials = Array.isArray(envelope.denials) ? envelope.denials.filter(isRecord) : [];
  return denials.map((denial) => `- [${String(denial.code)}] ${String(denial.reason)}`);
}

function reportLine(envelope: Record<string, unknown>): string {
  const disclosure = isRecord(envelope.disclosure) ? envelope.disclosure : {};
  const report = isRecord(envelope.enforcement) ? envelope.enforcement : {};
  const parts = [`sandbox ${String(envelope.sandbox_kind)}`];
  if (typeof disclosure.engine === "string") parts.push(`engine ${disclosure.engine}`);
  const axes = Object.entries(report).map(([axis, strength]) => `${axis} ${String(strength)}`);
  if (axes.length > 0) parts.push(`enforcement: ${axes.join(", ")}`);
  if (disclosure.unbridled === true) parts.push("UNBRIDLED (no kernel sandbox)");
  return parts.join("; ");
}

/**
 * The text a model reads for a run: the exit code and flags, stdout and stderr (each capped,
 * head and tail kept with a marker where cut), the denials recorded during the run, and
 * one line saying which boundary held.
 */
function runText(
  envelope: Record<string, unknown>,
  stdout: CappedOutput,
  stderr: CappedOutput,
): string {
  const lines = [`exit code: ${String(envelope.exit_code)}`];
  if (envelope.timed_out === true)
    lines.push("timed out: the call was killed when its timeout_secs ran out");
  if (envelope.stdout_truncated === true && stdout.cutBytes === 0)
    lines.push("stdout was truncated at the engine's output cap");
  if (envelope.stderr_truncated === true && stderr.cutBytes === 0)
    lines.push("stderr was truncated at the engine's output cap");
  const section = (title: string, body: string) => {
    if (body === "") return;
    lines.push(`--- ${title} ---`, body.endsWith("\n") ? body.slice(0, -1) : body);
  };
  section("stdout", cappedText("stdout", stdout));
  section("stderr", cappedText("stderr", stderr));
  const denials = denialLines(envelope);
  if (denials.length > 0) lines.push("--- denied during the run ---", ...denials);
  lines.push(`--- ${reportLine(envelope)} ---`);
  return `${lines.join("\n")}\n`;
}

/** The envelope with its output cut as the model's text is, and what was cut recorded. */
function cappedEnvelope(
  envelope: Record<string, unknown>,
  stdout: CappedOutput,
  stderr: CappedOutput,
): Record<string, unknown> {
  if (stdout.cutBytes === 0 && stderr.cutBytes === 0) return envelope;
  return {
    ...envelope,
    stdout: cappedText("stdout", stdout),
    stderr: cappedText("stderr", stderr),
    stdout_truncated: envelope.stdout_truncated === true || stdout.cutBytes > 0,
    stderr_truncated: envelope.stderr_truncated === true || stderr.cutBytes > 0,
    model_output_cut: { stdout_bytes: stdout.cutBytes, stderr_bytes: stderr.cutBytes },
  };
}

/**
 * Maps a dispatch outcome to a tool result (ADR 0014). A run that happened always reaches
 * the model with its exit code, stdout and stderr (capped per stream, head and tail kept),
 * the denials recorded during it appended; it is `isError: true` only when it timed out.
 * An envelope where nothing ran (a pre-run refusal, an fs tool refused) is `isError: true`
 * with the reasons as text. Any other envelope is `isError: false` with its compact JSON
 * as text. Each carries the envelope (its output capped the same way) as
 * `structuredContent`.
 */
export function resultOfEnvelope(envelope: unknown, options: RenderOptions = {}): ToolResult {
  if (!isRecord(envelope)) {
    const text = typeof envelope === "string" ? envelope : JSON.stringify(envelope ?? null);
    return { content: [{ type: "text", text }], isError: false };
  }
  if (isRun(envelope)) {
    const cap = options.maxModelOutputBytes ?? DEFAULT_MODEL_OUTPUT_BYTES;
    const stdout = capForModel(String(envelope.stdout ?? ""), cap);
    const stderr = capForModel(String(envelope.stderr ?? ""), cap);
    return {
      content: [{ type: "text", text: runText(envelope, stdout, stderr) }],
      structuredContent: cappedEnvelope(envelope, stdout, stderr),
      isError: envelope.timed_out === true,
    };
  }
  const nothingRan = envelope.denied === true && envelope.result === undefined;
  return {
    content: [
      {
        type: "text",
        text: nothingRan ? denialText(envelope as Envelopeish) : JSON.stringify(envelope),
      },
    ],
    structuredContent: envelope,
    isError: nothingRan,
  };
}

/** A thrown refusal or failure as a tool result: `isError: true`, the message as text. */
export function resultOfError(error: unknown): ToolResult {
  if (BridleError.isInstance(error)) {
    return {
      content: [{ type: "text", text: error.message }],
      structuredContent: { error: { code: error.code, message: error.message } },
      isError: true,
    };
  }
  return {
    content: [{ type: "text", text: "tool execution failed" }],
    isError: true,
  };
}
