const NEWLINE = 0x0a;

/** The counts of one input. */
export interface WcCounts {
  lines: number;
  words: number;
  bytes: number;
  maxLineLength: number;
}

export const zeroCounts = (): WcCounts => ({ lines: 0, words: 0, bytes: 0, maxLineLength: 0 });

/**
 * Newlines in a chunk, four bytes at a time where aligned (a word with no newline byte
 * is skipped with one test: the classic has-zero-byte trick on word ^ 0x0a0a0a0a).
 */
export function countNewlines(chunk: Uint8Array): number {
  let lines = 0;
  let index = 0;
  const head = Math.min(chunk.length, (4 - (chunk.byteOffset % 4)) % 4);
  for (; index < head; index += 1) if (chunk[index] === NEWLINE) lines += 1;
  const words = new Uint32Array(
    chunk.buffer,
    chunk.byteOffset + index,
    (chunk.length - index) >> 2,
  );
  for (let word = 0; word < words.length; word += 1) {
    const value = (words[word] as number) ^ 0x0a0a0a0a;
    if (((value - 0x01010101) & ~value & 0x80808080) !== 0) {
      const base = index + word * 4;
      for (let byte = base; byte < base + 4; byte += 1) if (chunk[byte] === NEWLINE) lines += 1;
    }
  }
  for (index += words.length * 4; index < chunk.length; index += 1)
    if (chunk[index] === NEWLINE) lines += 1;
  return lines;
}

/** Newlines only (`wc -l`, `-c`): the fast path, memchr-style. */
export class LineCounter {
  readonly counts = zeroCounts();

  add(chunk: Uint8Array): void {
    this.counts.bytes += chunk.length;
    this.counts.lines += countNewlines(chunk);
  }

  finish(): WcCounts {
    return this.counts;
  }
}

/**
 * GNU wc's single-byte loop (C locale): words are runs of printable non-space bytes
 * (non-printable bytes neither start nor end a word); line length counts printable
 * bytes, tabs to the next multiple of 8, `\r` and `\f` reset the position.
 */
export class FullCounter {
  readonly counts = zeroCounts();
  #inWord = false;
  #position = 0;

  add(chunk: Uint8Array): void {
    const counts = this.counts;
    counts.bytes += chunk.length;
    let { lines, words, maxLineLength } = counts;
    let inWord = this.#inWord;
    let position = this.#position;
    for (let index = 0; index < chunk.length; index += 1) {
      const byte = chunk[index] as number;
      if (byte === NEWLINE || byte === 0x0d || byte === 0x0c) {
        if (byte === NEWLINE) lines += 1;
        if (position > maxLineLength) maxLineLength = position;
        position = 0;
        if (inWord) words += 1;
        inWord = false;
      } else if (byte === 0x09) {
        position += 8 - (position % 8);
        if (inWord) words += 1;
        inWord = false;
      } else if (byte === 0x20 || byte === 0x0b) {
        if (byte === 0x20) position += 1;
        if (inWord) words += 1;
        inWord = false;
      } else if (byte > 0x20 && byte < 0x7f) {
        position += 1;
        inWord = true;
      }
    }
    counts.lines = lines;
    counts.words = words;
    counts.maxLineLength = maxLineLength;
    this.#inWord = inWord;
    this.#position = position;
  }

  finish(): WcCounts {
    if (this.#position > this.counts.maxLineLength) this.counts.maxLineLength = this.#position;
    if (this.#inWord) this.counts.words += 1;
    this.#inWord = false;
    this.#position = 0;
    return this.counts;
  }
}
