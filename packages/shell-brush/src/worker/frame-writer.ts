/**
 * The worker side of the result stream: sequence numbers, the per-stream output budget
 * (excess counted exactly, never sent), and the order reference §5.5 requires —
 * started, live output, denials, exactly one terminal.
 */
import type { Denial } from "@agent-bridle/core";
import {
  encodeFrame,
  FrameKind,
  jsonPayload,
  OUTPUT_CHUNK_BYTES,
  type SpawnEventPayload,
} from "./output-frames.js";

export type FrameSink = (frame: Buffer) => void;

export class FrameWriter {
  #sequence = 0;
  #budget: { stdout: number; stderr: number };
  #dropped = { stdout_bytes: 0, stderr_bytes: 0, events: 0 };
  readonly #denials: Denial[] = [];
  /** `kind`, `target` and `code` of each denial kept: one refusal is recorded once. */
  readonly #denialKeys = new Set<string>();
  #ended = false;

  constructor(
    private readonly sink: FrameSink,
    maxOutputBytes: number,
  ) {
    this.#budget = { stdout: maxOutputBytes, stderr: maxOutputBytes };
  }

  #send(kind: FrameKind, payload: Uint8Array): void {
    if (this.#ended) return;
    this.sink(encodeFrame(kind, this.#sequence, payload));
    this.#sequence += 1;
  }

  started(): void {
    this.#send(FrameKind.started, new Uint8Array());
  }

  output(stream: "stdout" | "stderr", chunk: Uint8Array): void {
    const allowed = Math.min(chunk.length, this.#budget[stream]);
    const over = chunk.length - allowed;
    for (let offset = 0; offset < allowed; offset += OUTPUT_CHUNK_BYTES) {
      const end = Math.min(allowed, offset + OUTPUT_CHUNK_BYTES);
      this.#send(
        stream === "stdout" ? FrameKind.stdout : FrameKind.stderr,
        chunk.subarray(offset, end),
      );
    }
    this.#budget[stream] -= allowed;
    if (over > 0) {
      this.#dropped[stream === "stdout" ? "stdout_bytes" : "stderr_bytes"] += over;
      this.#send(FrameKind.truncated, jsonPayload(this.#dropped));
    }
  }

  /**
   * Records a refusal for the terminal frame, once: a second denial of the same kind,
   * target and code in this call (the same operand refused to a probe, then to the open;
   * a utility and the interpreter's gate both reporting one refusal) adds nothing.
   */
  denied(denial: Denial): void {
    const key = JSON.stringify([denial.kind, denial.target, denial.code]);
    if (this.#denialKeys.has(key)) return;
    this.#denialKeys.add(key);
    this.#denials.push(denial);
  }

  spawn(event: SpawnEventPayload): void {
    this.#send(FrameKind.spawn, jsonPayload(event));
  }

  /** The denial frames, then the terminal; nothing is sent afterwards. */
  terminal(exitCode: number, error: string | null = null): void {
    for (const denial of this.#denials) this.#send(FrameKind.denied, jsonPayload(denial));
    this.#send(
      FrameKind.terminal,
      jsonPayload({ exit_code: exitCode, denials: this.#denials, error, dropped: this.#dropped }),
    );
    this.#ended = true;
  }
}
