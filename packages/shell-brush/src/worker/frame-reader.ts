/**
 * The parent's strict reading of the worker's result stream (reference §5.5): every
 * violation is fatal and names itself (`invalid brush worker event stream: …`). Fed
 * chunks as they arrive; hands each validated frame to `onFrame` at once (live output).
 */
import type { Denial } from "@agent-bridle/core";
import {
  type DroppedTotals,
  FRAME_HEADER_BYTES,
  FRAME_MAGIC,
  FRAME_VERSION,
  FrameKind,
  MAX_FRAME_PAYLOAD,
  type SpawnEventPayload,
  type TerminalPayload,
} from "./output-frames.js";

export type WorkerEvent =
  | { readonly kind: "stdout" | "stderr"; readonly chunk: Buffer }
  | { readonly kind: "denied"; readonly denial: Denial }
  | { readonly kind: "truncated"; readonly dropped: DroppedTotals }
  | { readonly kind: "spawn"; readonly event: SpawnEventPayload }
  | { readonly kind: "terminal"; readonly terminal: TerminalPayload };

export class FrameStreamError extends Error {
  constructor(reason: string) {
    super(`invalid brush worker event stream: ${reason}`);
  }
}

const TERMINAL_KEYS = ["denials", "dropped", "error", "exit_code"];
const DROPPED_KEYS = ["events", "stderr_bytes", "stdout_bytes"];

function exactKeys(value: unknown, keys: readonly string[]): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  return JSON.stringify(Object.keys(value).sort()) === JSON.stringify(keys);
}

function isCount(value: unknown): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0;
}

function droppedOf(value: unknown): DroppedTotals {
  if (!exactKeys(value, DROPPED_KEYS) || !DROPPED_KEYS.every((key) => isCount(value[key]))) {
    throw new FrameStreamError("malformed drop totals");
  }
  return value as unknown as DroppedTotals;
}

function parseJson(payload: Buffer): unknown {
  try {
    return JSON.parse(payload.toString("utf8"));
  } catch {
    throw new FrameStreamError("a JSON payload does not parse");
  }
}

function isDenial(value: unknown): value is Denial {
  if (typeof value !== "object" || value === null) return false;
  const record = value as Record<string, unknown>;
  return ["kind", "target", "code", "reason"].every((key) => typeof record[key] === "string");
}

export class FrameReader {
  #buffered: Buffer = Buffer.alloc(0);
  #sequence = 0;
  #started = false;
  #terminal: TerminalPayload | undefined;
  #total = 0;
  readonly #denials: Denial[] = [];

  /** `maxTotalBytes`: the whole stream's bound (reference: min(4·cap + 1 MiB, 256 MiB)). */
  constructor(
    private readonly onEvent: (event: WorkerEvent) => void,
    private readonly maxTotalBytes: number,
  ) {}

  get terminal(): TerminalPayload | undefined {
    return this.#terminal;
  }

  /** Feeds bytes; throws `FrameStreamError` on the first violation. */
  push(chunk: Buffer): void {
    this.#total += chunk.length;
    if (this.#total > this.maxTotalBytes) throw new FrameStreamError("stream over its total cap");
    if (this.#terminal !== undefined) throw new FrameStreamError("bytes after the terminal");
    this.#buffered = this.#buffered.length === 0 ? chunk : Buffer.concat([this.#buffered, chunk]);
    while (this.#buffered.length >= FRAME_HEADER_BYTES) {
      const header = this.#buffered;
      if (!header.subarray(0, 4).equals(FRAME_MAGIC)) throw new FrameStreamError("bad magic");
      if (header.readUInt8(4) !== FRAME_VERSION) throw new FrameStreamError("unknown version");
      const length = header.readUInt32LE(14);
      if (length > MAX_FRAME_PAYLOAD) throw new FrameStreamError("frame over 1 MiB");
      if (header.length < FRAME_HEADER_BYTES + length) return;
      const kind = header.readUInt8(5);
      const sequence = header.readBigUInt64LE(6);
      if (sequence !== BigInt(this.#sequence)) throw new FrameStreamError("sequence gap");
      this.#sequence += 1;
      const payload = Buffer.from(header.subarray(FRAME_HEADER_BYTES, FRAME_HEADER_BYTES + length));
      this.#buffered = header.subarray(FRAME_HEADER_BYTES + length);
      this.#frame(kind, payload);
      if (this.#terminal !== undefined && this.#buffered.length > 0) {
        throw new FrameStreamError("bytes after the terminal");
      }
    }
  }

  /** End of stream: a terminal must have arrived (and nothing partial after it). */
  end(): TerminalPayload {
    if (this.#buffered.length > 0) throw new FrameStreamError("a truncated frame");
    if (this.#terminal === undefined) throw new FrameStreamError("ended before a terminal");
    return this.#terminal;
  }

  #frame(kind: number, payload: Buffer): void {
    if (kind === FrameKind.started) {
      if (this.#started || this.#sequence !== 1) throw new FrameStreamError("started twice");
      if (payload.length !== 0) throw new FrameStreamError("started with a payload");
      this.#started = true;
      return;
    }
    if (kind === FrameKind.terminal) {
      this.#terminalFrame(payload);
      return;
    }
    if (!this.#started) throw new FrameStreamError("a frame before started");
    const event = this.#eventOf(kind, payload);
    if (event.kind === "denied") this.#denials.push(event.denial);
    this.onEvent(event);
  }

  #eventOf(kind: number, payload: Buffer): WorkerEvent {
    switch (kind) {
      case FrameKind.stdout:
        return { kind: "stdout", chunk: payload };
      case FrameKind.stderr:
        return { kind: "stderr", chunk: payload };
      case FrameKind.truncated:
        return { kind: "truncated", dropped: droppedOf(parseJson(payload)) };
      case FrameKind.denied: {
        const denial = parseJson(payload);
        if (!isDenial(denial)) throw new FrameStreamError("a malformed denial");
        return { kind: "denied", denial };
      }
      case FrameKind.spawn: {
        const event = parseJson(payload) as SpawnEventPayload;
        if (!Array.isArray(event?.argv) || !event.argv.every((arg) => typeof arg === "string")) {
          throw new FrameStreamError("a malformed spawn event");
        }
        return { kind: "spawn", event };
      }
      default:
        throw new FrameStreamError(`unknown frame kind ${kind}`);
    }
  }

  #terminalFrame(payload: Buffer): void {
    const value = parseJson(payload);
    if (!exactKeys(value, TERMINAL_KEYS)) throw new FrameStreamError("a malformed terminal");
    const { exit_code, denials, error, dropped } = value;
    if (!Number.isInteger(exit_code) || (exit_code as number) < 0 || (exit_code as number) > 255)
      throw new FrameStreamError("a terminal exit code out of range");
    if (error !== null && typeof error !== "string")
      throw new FrameStreamError("a malformed terminal error");
    if (!this.#started && error === null)
      throw new FrameStreamError("a pre-start terminal without an error");
    if (JSON.stringify(denials) !== JSON.stringify(this.#denials))
      throw new FrameStreamError("terminal denials differ from the streamed ones");
    this.#terminal = {
      exit_code: exit_code as number,
      denials: this.#denials,
      error: error as string | null,
      dropped: droppedOf(dropped),
    };
    this.onEvent({ kind: "terminal", terminal: this.#terminal });
  }
}
