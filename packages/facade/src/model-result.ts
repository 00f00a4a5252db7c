import { BridleError } from "@agent-bridle/core";
import {
  type CappedOutput,
  capForModel,
  cappedText,
  DEFAULT_MODEL_OUTPUT_BYTES,
} from "./model-output.js";

/**
 * What a model reads for one dispatch outcome, independent of the protocol that carries it
 * (MCP, an agent framework's tool result). ADR 0014 (MCP), ADR 0018 (agent frameworks).
 *
 * - `ran`: a process ran; `text` has its exit code, stdout and stderr (capped) and the
 *   denials recorded during it. `isError` only when it timed out.
 * - `refused`: nothing ran (an in-band denial, or a thrown refusal: unknown tool, invalid
 *   arguments, spent budget); `text` is the reasons. `isError` is true.
 * - `value`: any other envelope (an fs tool's answer); `text` is its compact JSON.
 * - `failed`: the tool was admitted and failed (`TOOL_FAILED`), or a non-bridle error.
 */
export type ModelResultKind = "ran" | "refused" | "value" | "failed";

export interface ModelResult {
  readonly kind: ModelResultKind;
  readonly text: string;
  readonly isError: boolean;
  /** The envelope, its output cut as `text` is; for thrown errors `{error: {code, message}}`. */
  readonly structured: Record<string, unknown> | undefined;
}

export interface ModelResultOptions {
  /** UTF-8 bytes of each of stdout and stderr a model receives; head and tail are kept. */
  readonly maxModelOutputBytes?: number | undefined;
}

interface Denialish {
  readonly reason?: unknown;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The reasons of an envelope's denials, joined with `; ` (reference §11.4). */
export function denialText(envelope: { readonly denials?: readonly Denialish[] }): string {
  const reasons = (envelope.denials ?? [])
    .map((denial) => (typeof denial.reason === "string" ? denial.reason : undefined))
    .filter((reason): reason is string => reason !== undefined);
  return reasons.length > 0 ? reasons.join("; ") : "denied: the call was refused";
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
 * What the model reads for an envelope `dispatch` returned. A run always reaches the model
 * with its exit code, stdout and stderr (capped per stream) and the denials recorded during
 * it; an envelope where nothing ran gives the reasons.
 */
export function modelResultOf(envelope: unknown, options: ModelResultOptions = {}): ModelResult {
  if (!isRecord(envelope)) {
    const text = typeof envelope === "string" ? envelope : JSON.stringify(envelope ?? null);
    return Object.freeze({ kind: "value", text, isError: false, structured: undefined });
  }
  if (typeof envelope.exit_code === "number") {
    const cap = options.maxModelOutputBytes ?? DEFAULT_MODEL_OUTPUT_BYTES;
    const stdout = capForModel(String(envelope.stdout ?? ""), cap);
    const stderr = capForModel(String(envelope.stderr ?? ""), cap);
    return Object.freeze({
      kind: "ran",
      text: runText(envelope, stdout, stderr),
      isError: envelope.timed_out === true,
      structured: cappedEnvelope(envelope, stdout, stderr),
    });
  }
  const nothingRan = envelope.denied === true && envelope.result === undefined;
  return Object.freeze({
    kind: nothingRan ? "refused" : "value",
    text: nothingRan ? denialText(envelope) : JSON.stringify(envelope),
    isError: nothingRan,
    structured: envelope,
  });
}

/**
 * What the model reads for an error `dispatch` threw: a refusal (nothing ran) or a failure,
 * with its message; any other error only as "tool execution failed" (its message may hold
 * paths or contents).
 */
export function modelResultOfError(error: unknown): ModelResult {
  if (BridleError.isInstance(error)) {
    return Object.freeze({
      kind: error.code === "TOOL_FAILED" ? "failed" : "refused",
      text: error.message,
      isError: true,
      structured: { error: { code: error.code, message: error.message } },
    });
  }
  return Object.freeze({
    kind: "failed",
    text: "tool execution failed",
    isError: true,
    structured: undefined,
  });
}
