import { sortByteOrder } from "./byte-order-sort.js";
import { type KeyField, keySpan } from "./key-field.js";
import { humanCompare, numericCompare } from "./numeric-compare.js";
import { versionCompare } from "./version-compare.js";

/** Compares two lines (latin1 byte strings, no newline). */
export type LineComparator = (a: string, b: string) => number;

export interface CompareSettings {
  readonly keys: readonly KeyField[];
  /** -1: fields are separated by blank-to-nonblank transitions. */
  readonly tab: number;
  /** The global -r: reverses the last-resort whole-line comparison. */
  readonly reverse: boolean;
  readonly stable: boolean;
  readonly unique: boolean;
}

const upper = (code: number) => (code >= 0x61 && code <= 0x7a ? code - 32 : code);

function compareText(
  a: string,
  aFrom: number,
  aTo: number,
  b: string,
  bFrom: number,
  bTo: number,
  fold: boolean,
): number {
  const aLength = aTo - aFrom;
  const bLength = bTo - bFrom;
  const shortest = Math.min(aLength, bLength);
  for (let index = 0; index < shortest; index += 1) {
    let left = a.charCodeAt(aFrom + index);
    let right = b.charCodeAt(bFrom + index);
    if (fold) {
      left = upper(left);
      right = upper(right);
    }
    if (left !== right) return left - right;
  }
  return aLength - bLength;
}

function compareKey(key: KeyField, tab: number, a: string, b: string): number {
  const [aFrom, aTo] = keySpan(a, key, tab);
  const [bFrom, bTo] = keySpan(b, key, tab);
  let difference: number;
  if (key.numeric) difference = numericCompare(a, aFrom, aTo, b, bFrom, bTo);
  else if (key.humanNumeric) difference = humanCompare(a, aFrom, aTo, b, bFrom, bTo);
  else if (key.version) difference = versionCompare(a.slice(aFrom, aTo), b.slice(bFrom, bTo));
  else difference = compareText(a, aFrom, aTo, b, bFrom, bTo, key.foldCase);
  return key.reverse ? -difference : difference;
}

/** Byte order of whole lines (shorter first on a common prefix): GNU's last resort. */
export const compareBytes: LineComparator = (a, b) => (a < b ? -1 : a > b ? 1 : 0);

/** GNU sort's `compare`: the keys in order, then (unless -s or -u) the whole line. */
export function createComparator(settings: CompareSettings): LineComparator {
  const { keys, tab, reverse } = settings;
  const lastResort: LineComparator = reverse ? (a, b) => compareBytes(b, a) : compareBytes;
  if (keys.length === 0) return lastResort;
  const keysOnly = settings.stable || settings.unique;
  return (a, b) => {
    for (const key of keys) {
      const difference = compareKey(key, tab, a, b);
      if (difference !== 0) return difference;
    }
    return keysOnly ? 0 : lastResort(a, b);
  };
}

/** The comparison that decides equality for -u (keys only, or whole lines). */
export function createUniqueComparator(settings: CompareSettings): LineComparator {
  return createComparator({ ...settings, unique: true });
}

/**
 * Sorts a buffer of lines in place by `createComparator(settings)`. The plain byte order
 * (no keys; -r, -s and -u change nothing about which lines are equal: only identical
 * lines compare equal) uses the radix sort; everything else the comparison sort.
 */
export function createLineSorter(settings: CompareSettings): (lines: string[]) => string[] {
  if (settings.keys.length === 0) {
    return (lines) => {
      sortByteOrder(lines);
      if (settings.reverse) lines.reverse();
      return lines;
    };
  }
  const compare = createComparator(settings);
  return (lines) => lines.sort(compare);
}
