import { BridleError } from "agent-bridle";

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

/**
 * Maps a dispatch outcome to a tool result: an envelope with `denied` (in-band denial, or
 * a run with denials) is `isError: true` with the reasons as text; any other envelope is
 * `isError: false` with the compact JSON as text. Both carry the envelope as
 * `structuredContent`.
 */
export function resultOfEnvelope(envelope: unknown): ToolResult {
  if (!isRecord(envelope)) {
    const text = typeof envelope === "string" ? envelope : JSON.stringify(envelope ?? null);
    return { content: [{ type: "text", text }], isError: false };
  }
  const denied = envelope.denied === true;
  return {
    content: [
      {
        type: "text",
        text: denied ? denialText(envelope as Envelopeish) : JSON.stringify(envelope),
      },
    ],
    structuredContent: envelope,
    isError: denied,
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
