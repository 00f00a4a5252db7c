/**
 * A resource limit of the call that a spawned tree ran into, by the name a
 * `LIMIT_EXCEEDED` denial's target uses.
 */
export type ExceededLimit = "memory" | "processes" | "file_size" | "written_bytes";

/**
 * The names in the order a result lists them. `written_bytes` (the bytes an interpreter
 * writes itself) is the engine's own count, never on the launcher's trailer.
 */
export const EXCEEDED_LIMITS: readonly ExceededLimit[] = Object.freeze([
  "memory",
  "processes",
  "file_size",
  "written_bytes",
]);

/**
 * The limits the launcher reports on its trailer line: the cgroup counters it reads, and a
 * SIGXFSZ it saw in the tree it traces. One line names every limit hit, comma-separated in
 * this order (`memory,file_size`).
 */
const TRAILER_LIMITS: readonly ExceededLimit[] = ["memory", "processes", "file_size"];
const MARKER = Buffer.from("\nbridle-launch: limit exceeded: ", "latin1");

/** Every non-empty subsequence of `TRAILER_LIMITS`, in order: what a trailer may name. */
const TRAILER_SETS: readonly (readonly ExceededLimit[])[] = Array.from(
  { length: (1 << TRAILER_LIMITS.length) - 1 },
  (_, index) => TRAILER_LIMITS.filter((_limit, bit) => ((index + 1) >> bit) & 1),
);
const ENDINGS = TRAILER_SETS.map((set) => Buffer.from(`${set.join(",")}\n`, "latin1"));
const LONGEST = MARKER.length + Math.max(...ENDINGS.map((ending) => ending.length));
const NEWLINE = 0x0a;

function isPrefixOf(bytes: Buffer, of: Buffer): boolean {
  return bytes.length <= of.length && of.subarray(0, bytes.length).equals(bytes);
}

/** Whether `tail` is a complete trailer or could still become one. */
function mayBeTrailer(tail: Buffer): boolean {
  if (tail.length <= MARKER.length) return isPrefixOf(tail, MARKER);
  if (!tail.subarray(0, MARKER.length).equals(MARKER)) return false;
  const rest = tail.subarray(MARKER.length);
  return ENDINGS.some((ending) => isPrefixOf(rest, ending));
}

function trailerLimits(tail: Buffer): readonly ExceededLimit[] | undefined {
  if (!tail.subarray(0, MARKER.length).equals(MARKER)) return undefined;
  const rest = tail.subarray(MARKER.length);
  const index = ENDINGS.findIndex((ending) => ending.equals(rest));
  return TRAILER_SETS[index];
}

/**
 * The launcher's report of a limit the tree ran into: after its target died it writes
 * `\nbridle-launch: limit exceeded: <name>\n` as the last bytes on its stderr (ADR 0010,
 * limits). It is not program output, so this filter passes a stage's stderr through
 * while holding back any tail that could still become that line (at most ~45 bytes), and
 * at the end of the stream drops it when it is exactly that line, the last thing written.
 * Anything else is passed on unchanged, so a limit name the funnel does not know stays
 * visible. A program can print the same line itself as its last output; the most it can
 * do with it is report a limit it did not hit.
 */
export class LimitTrailerFilter {
  #held: Buffer = Buffer.alloc(0);
  #limits: readonly ExceededLimit[] | undefined;
  #ended = false;

  /** The first limit the trailer named (known once `end` was called). */
  get limit(): ExceededLimit | undefined {
    return this.#limits?.[0];
  }

  /** Every limit the trailer named, in `EXCEEDED_LIMITS` order (known once `end` was called). */
  get limits(): readonly ExceededLimit[] {
    return this.#limits ?? [];
  }

  /** Takes the next chunk; returns the bytes that can be passed on now. */
  push(chunk: Buffer): Buffer {
    if (this.#ended) return chunk;
    const data = this.#held.length === 0 ? chunk : Buffer.concat([this.#held, chunk]);
    for (let start = Math.max(0, data.length - LONGEST); start < data.length; start += 1) {
      if (data[start] !== NEWLINE || !mayBeTrailer(data.subarray(start))) continue;
      // Copied: the held tail must not pin the whole read buffer.
      this.#held = Buffer.from(data.subarray(start));
      return data.subarray(0, start);
    }
    this.#held = Buffer.alloc(0);
    return data;
  }

  /** End of the stream: returns what was held back unless it was the trailer. */
  end(): Buffer {
    if (this.#ended) return Buffer.alloc(0);
    this.#ended = true;
    const held = this.#held;
    this.#held = Buffer.alloc(0);
    this.#limits = trailerLimits(held);
    return this.#limits === undefined ? held : Buffer.alloc(0);
  }
}
