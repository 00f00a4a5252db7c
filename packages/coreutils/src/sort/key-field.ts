/** One sort key: GNU's `struct keyfield` (positions zero-based; -1 = whole line). */
export interface KeyField {
  /** Zero-based start field, or -1 for "from the line start". */
  startField: number;
  startChar: number;
  /** Zero-based end field, or -1 for "to the line end". */
  endField: number;
  /** Zero means "to the end of the end field". */
  endChar: number;
  skipStartBlanks: boolean;
  skipEndBlanks: boolean;
  foldCase: boolean;
  numeric: boolean;
  humanNumeric: boolean;
  version: boolean;
  reverse: boolean;
}

export const newKey = (): KeyField => ({
  startField: -1,
  startChar: 0,
  endField: -1,
  endChar: 0,
  skipStartBlanks: false,
  skipEndBlanks: false,
  foldCase: false,
  numeric: false,
  humanNumeric: false,
  version: false,
  reverse: false,
});

/** GNU `default_key_compare`: the key changes nothing about how text compares. */
export function isDefaultCompare(key: KeyField): boolean {
  return !(
    key.skipStartBlanks ||
    key.skipEndBlanks ||
    key.foldCase ||
    key.numeric ||
    key.humanNumeric ||
    key.version
  );
}

/** Blank in the C locale for sort: space, tab (and newline, which lines never hold). */
export const isBlank = (code: number): boolean => code === 0x20 || code === 0x09 || code === 0x0a;

/** GNU `begfield`: where the key starts in `line` (a latin1 byte string). */
export function keyStart(line: string, key: KeyField, tab: number): number {
  const limit = line.length;
  let at = 0;
  let words = key.startField;
  if (tab >= 0) {
    while (at < limit && words-- > 0) {
      while (at < limit && line.charCodeAt(at) !== tab) at += 1;
      if (at < limit) at += 1;
    }
  } else {
    while (at < limit && words-- > 0) {
      while (at < limit && isBlank(line.charCodeAt(at))) at += 1;
      while (at < limit && !isBlank(line.charCodeAt(at))) at += 1;
    }
  }
  if (key.skipStartBlanks) while (at < limit && isBlank(line.charCodeAt(at))) at += 1;
  return Math.min(limit, at + key.startChar);
}

/** GNU `limfield`: where the key ends in `line`. */
export function keyLimit(line: string, key: KeyField, tab: number): number {
  const limit = line.length;
  let at = 0;
  let words = key.endField + (key.endChar === 0 ? 1 : 0);
  if (tab >= 0) {
    while (at < limit && words-- > 0) {
      while (at < limit && line.charCodeAt(at) !== tab) at += 1;
      if (at < limit && (words > 0 || key.endChar !== 0)) at += 1;
    }
  } else {
    while (at < limit && words-- > 0) {
      while (at < limit && isBlank(line.charCodeAt(at))) at += 1;
      while (at < limit && !isBlank(line.charCodeAt(at))) at += 1;
    }
  }
  if (key.endChar !== 0) {
    if (key.skipEndBlanks) while (at < limit && isBlank(line.charCodeAt(at))) at += 1;
    at = Math.min(limit, at + key.endChar);
  }
  return at;
}

/** The [start, limit) span of `key` in `line`, as GNU's keycompare computes it. */
export function keySpan(line: string, key: KeyField, tab: number): [number, number] {
  const limit = key.endField === -1 ? line.length : keyLimit(line, key, tab);
  let start: number;
  if (key.startField !== -1) start = keyStart(line, key, tab);
  else {
    start = 0;
    if (key.skipStartBlanks) while (start < limit && isBlank(line.charCodeAt(start))) start += 1;
  }
  return [start, Math.max(start, limit)];
}
