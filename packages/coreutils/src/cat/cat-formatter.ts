import { ByteBuilder } from "../io/byte-builder.js";
import type { CatFormat } from "./cat-options.js";

const NEWLINE = 0x0a;
const TAB = 0x09;
const RETURN = 0x0d;

/** Appends one non-newline byte as `cat -v` shows it (`^X`, `M-x`, `M-^X`, `^?`). */
function appendNonprinting(out: ByteBuilder, byte: number, showTabs: boolean): void {
  if (byte >= 32) {
    if (byte < 127) out.byte(byte);
    else if (byte === 127) out.text("^?");
    else {
      out.text("M-");
      const low = byte - 128;
      if (low >= 32) {
        if (low < 127) out.byte(low);
        else out.text("^?");
      } else {
        out.byte(0x5e);
        out.byte(low + 64);
      }
    }
  } else if (byte === TAB && !showTabs) out.byte(TAB);
  else {
    out.byte(0x5e);
    out.byte(byte + 64);
  }
}

/**
 * GNU cat's formatting loop as a state machine over chunks. `newlines` follows GNU:
 * -1 inside a line, 0 at a line start, 1+ after that many empty lines. The state and
 * the line counter carry across files, as in GNU.
 */
export class CatFormatter {
  readonly #format: CatFormat;
  #newlines = 0;
  #lineNumber = 0;
  /** A `\r` seen at the end of a chunk under `-E`: `^M` if a newline follows. */
  #pendingReturn = false;

  constructor(format: CatFormat) {
    this.#format = format;
  }

  #number(out: ByteBuilder): void {
    this.#lineNumber += 1;
    out.text(`${String(this.#lineNumber).padStart(6, " ")}\t`);
  }

  #newline(out: ByteBuilder): void {
    const format = this.#format;
    this.#newlines += 1;
    if (this.#newlines > 0) {
      if (this.#newlines >= 2) {
        this.#newlines = 2;
        if (format.squeezeBlank) return;
      }
      if (format.number && !format.numberNonblank) this.#number(out);
    }
    if (format.showEnds) {
      if (this.#pendingReturn) out.text("^M");
      out.byte(0x24);
    }
    this.#pendingReturn = false;
    out.byte(NEWLINE);
  }

  format(chunk: Uint8Array): Buffer {
    const format = this.#format;
    const out = new ByteBuilder(chunk.length + (chunk.length >> 1) + 64);
    for (let index = 0; index < chunk.length; index += 1) {
      const byte = chunk[index] as number;
      if (byte === NEWLINE) {
        this.#newline(out);
        continue;
      }
      if (this.#pendingReturn) {
        out.byte(RETURN);
        this.#pendingReturn = false;
      }
      if (this.#newlines >= 0 && format.number) this.#number(out);
      this.#newlines = -1;
      if (format.showNonprinting) appendNonprinting(out, byte, format.showTabs);
      else if (byte === TAB && format.showTabs) out.text("^I");
      else if (byte === RETURN && format.showEnds) {
        // GNU 9.1 shows a CR before a newline as `^M` under -E.
        if (index + 1 === chunk.length) this.#pendingReturn = true;
        else if (chunk[index + 1] === NEWLINE) out.text("^M");
        else out.byte(RETURN);
      } else out.byte(byte);
    }
    return out.take();
  }

  /** End of one file: a held `\r` with no newline after it is output as it is. */
  finish(): Buffer {
    if (!this.#pendingReturn) return Buffer.alloc(0);
    this.#pendingReturn = false;
    return Buffer.from([RETURN]);
  }
}
