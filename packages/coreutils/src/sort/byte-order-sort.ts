/** Groups at most this long are insertion-sorted with the engine's string comparison. */
const SMALL_GROUP = 16;
/** Past this many prefix bytes a tie group is sorted by comparison (long shared prefixes). */
const MAX_RADIX_DEPTH = 48;

const compareBytes = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

// The packed keys are written as two 32-bit words per 64-bit element: low word first.
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

function bitsFor(count: number): number {
  let bits = 1;
  while (2 ** bits < count) bits += 1;
  return bits;
}

function insertionSort(work: string[], from: number, to: number): void {
  for (let index = from + 1; index < to; index += 1) {
    const line = work[index] as string;
    let slot = index - 1;
    while (slot >= from && (work[slot] as string) > line) {
      work[slot + 1] = work[slot] as string;
      slot -= 1;
    }
    work[slot + 1] = line;
  }
}

function comparisonSort(work: string[], from: number, to: number): void {
  const part = work.slice(from, to).sort(compareBytes);
  for (let index = 0; index < part.length; index += 1) work[from + index] = part[index] as string;
}

const codeAt = (line: string, at: number) => (at < line.length ? line.charCodeAt(at) : 0);

/**
 * Sorts `work[from, to)`, whose lines share their first `depth` bytes, by the bytes from
 * `depth` on. Each line gets a 64-bit key: its next 4–6 bytes (missing bytes read as 0,
 * which keeps the order: a line that ends is a prefix of any line it ties with), then its
 * position in the range; one native typed-array sort orders the keys; lines that tie on
 * the prefix are ordered by length when they end inside it, and sorted at the next depth
 * otherwise.
 */
function sortRange(work: string[], from: number, to: number, depth: number): void {
  const count = to - from;
  if (count <= SMALL_GROUP) {
    insertionSort(work, from, to);
    return;
  }
  if (depth >= MAX_RADIX_DEPTH) {
    comparisonSort(work, from, to);
    return;
  }
  const indexBits = bitsFor(count);
  const width = indexBits <= 16 ? 6 : indexBits <= 24 ? 5 : 4;
  const indexMask = indexBits >= 32 ? 0xffffffff : 2 ** indexBits - 1;
  const packed = new BigUint64Array(count);
  const words = new Uint32Array(packed.buffer);
  const lines = work.slice(from, to);
  for (let position = 0; position < count; position += 1) {
    const line = lines[position] as string;
    let high: number;
    if (line.length >= depth + 4) {
      high =
        (line.charCodeAt(depth) << 24) |
        (line.charCodeAt(depth + 1) << 16) |
        (line.charCodeAt(depth + 2) << 8) |
        line.charCodeAt(depth + 3);
    } else {
      high =
        (codeAt(line, depth) << 24) |
        (codeAt(line, depth + 1) << 16) |
        (codeAt(line, depth + 2) << 8) |
        codeAt(line, depth + 3);
    }
    let low = position;
    if (width >= 5) low |= codeAt(line, depth + 4) << 24;
    if (width === 6) low |= codeAt(line, depth + 5) << 16;
    words[2 * position] = low >>> 0;
    words[2 * position + 1] = high >>> 0;
  }
  packed.sort();
  for (let position = 0; position < count; position += 1) {
    work[from + position] = lines[(words[2 * position] as number) & indexMask] as string;
  }
  const prefixMask = ~indexMask >>> 0;
  const next = depth + width;
  let start = 0;
  while (start < count) {
    const high = words[2 * start + 1] as number;
    const low = ((words[2 * start] as number) & prefixMask) >>> 0;
    let end = start + 1;
    while (
      end < count &&
      words[2 * end + 1] === high &&
      ((words[2 * end] as number) & prefixMask) >>> 0 === low
    ) {
      end += 1;
    }
    if (end - start > 1) sortTies(work, from + start, from + end, next);
    start = end;
  }
}

/**
 * A group whose lines agree (0-padded) up to `next`: the lines that end by `next` come
 * first, shorter first (each is a prefix of the longer ones); the rest go on at `next`.
 */
function sortTies(work: string[], from: number, to: number, next: number): void {
  const ended: string[] = [];
  let write = from;
  for (let index = from; index < to; index += 1) {
    const line = work[index] as string;
    if (line.length <= next) ended.push(line);
    else work[write++] = line;
  }
  if (ended.length === 0) {
    sortRange(work, from, to, next);
    return;
  }
  const rest = work.slice(from, write);
  ended.sort((a, b) => a.length - b.length);
  let index = from;
  for (const line of ended) work[index++] = line;
  for (const line of rest) work[index++] = line;
  if (rest.length > 1) sortRange(work, to - rest.length, to, next);
}

/**
 * Sorts latin1 byte strings into plain byte order (GNU's `LC_ALL=C` whole-line order),
 * in place. Only for the plain comparison: lines that compare equal are identical, so
 * no stability question arises. An MSD radix sort over packed key prefixes.
 */
export function sortByteOrder(lines: string[]): void {
  if (!LITTLE_ENDIAN) {
    lines.sort(compareBytes);
    return;
  }
  sortRange(lines, 0, lines.length, 0);
}
