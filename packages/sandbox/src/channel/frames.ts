/**
 * The frame both private channels speak (the carried coreutils entry's request, the bash
 * worker's launch and request frames): magic (8 bytes) ‖ u32 LE body length ‖ body. The
 * child acknowledges with its own magic ‖ the nonce the frame carried. Each protocol
 * names its magic and the bounds of its body; a header outside them is refused before
 * any body byte is buffered.
 */

/** Every magic is eight bytes (a protocol tag and version, NUL-padded: `ABCU-R1\0`). */
export const MAGIC_BYTES = 8;
/** magic ‖ u32 LE body length. */
export const FRAME_HEADER_BYTES = MAGIC_BYTES + 4;

/** One kind of frame: its magic and the sizes its body may have. */
export interface FrameSpec {
  readonly magic: Buffer;
  /** The smallest body (default 0). */
  readonly minBody?: number;
  readonly maxBody: number;
}

/** A magic from its eight-character text (`"ABBW-L1\0"`). */
export function frameMagic(text: string): Buffer {
  const magic = Buffer.from(text, "latin1");
  if (magic.length !== MAGIC_BYTES) throw new RangeError(`a frame magic is ${MAGIC_BYTES} bytes`);
  return magic;
}

/** header ‖ body; a body outside the spec's bounds is a programming error (`RangeError`). */
export function encodeFrame(spec: FrameSpec, body: Uint8Array): Buffer {
  if (body.length > spec.maxBody) {
    throw new RangeError(`frame body over ${spec.maxBody} bytes`);
  }
  if (body.length < (spec.minBody ?? 0)) throw new RangeError("frame body too short");
  const header = Buffer.alloc(FRAME_HEADER_BYTES);
  spec.magic.copy(header, 0);
  header.writeUInt32LE(body.length, MAGIC_BYTES);
  return Buffer.concat([header, body]);
}

/**
 * What the first bytes of a stream say of the frame they begin: its body length, `more`
 * when the header is not all there yet, or why it is no such frame (decided on as few
 * bytes as possible: a foreign magic at its eighth byte, a length at its twelfth).
 */
export function frameBodyLength(
  spec: FrameSpec,
  bytes: Buffer,
): { readonly length: number } | "more" | { readonly error: string } {
  const seen = Math.min(bytes.length, MAGIC_BYTES);
  if (!bytes.subarray(0, seen).equals(spec.magic.subarray(0, seen))) {
    return { error: "malformed frame (magic)" };
  }
  if (bytes.length < FRAME_HEADER_BYTES) return "more";
  const length = bytes.readUInt32LE(MAGIC_BYTES);
  if (length > spec.maxBody || length < (spec.minBody ?? 0)) {
    return { error: "malformed frame (body length)" };
  }
  return { length };
}

/** The child's acknowledgement: its magic ‖ the nonce (bytes as the frame carried them). */
export function encodeAck(magic: Buffer, nonce: Uint8Array): Buffer {
  return Buffer.concat([magic, nonce]);
}
