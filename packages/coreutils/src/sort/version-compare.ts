// gnulib filevercmp / filenvercmp (2022), over latin1 byte strings.

const isDigit = (code: number) => code >= 0x30 && code <= 0x39;
const isAlpha = (code: number) => (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);
const TILDE = 0x7e;
const DOT = 0x2e;

/** Length of `text` without its file suffix, `(\.[A-Za-z~][A-Za-z0-9~]*)*$`. */
function prefixLength(text: string): number {
  const length = text.length;
  let prefix = 0;
  for (let index = 0; ; ) {
    if (index === length) return prefix;
    index += 1;
    prefix = index;
    while (
      index + 1 < length &&
      text.charCodeAt(index) === DOT &&
      (isAlpha(text.charCodeAt(index + 1)) || text.charCodeAt(index + 1) === TILDE)
    ) {
      for (index += 2; index < length; index += 1) {
        const code = text.charCodeAt(index);
        if (!(isAlpha(code) || isDigit(code) || code === TILDE)) break;
      }
    }
  }
}

function order(text: string, position: number, length: number): number {
  if (position === length) return -1;
  const code = text.charCodeAt(position);
  if (isDigit(code)) return 0;
  if (isAlpha(code)) return code;
  if (code === TILDE) return -2;
  return code + 256;
}

function verrevcmp(a: string, aLength: number, b: string, bLength: number): number {
  let aPos = 0;
  let bPos = 0;
  while (aPos < aLength || bPos < bLength) {
    let firstDiff = 0;
    while (
      (aPos < aLength && !isDigit(a.charCodeAt(aPos))) ||
      (bPos < bLength && !isDigit(b.charCodeAt(bPos)))
    ) {
      const aOrder = order(a, aPos, aLength);
      const bOrder = order(b, bPos, bLength);
      if (aOrder !== bOrder) return aOrder - bOrder;
      aPos += 1;
      bPos += 1;
    }
    while (aPos < aLength && a.charCodeAt(aPos) === 0x30) aPos += 1;
    while (bPos < bLength && b.charCodeAt(bPos) === 0x30) bPos += 1;
    while (
      aPos < aLength &&
      bPos < bLength &&
      isDigit(a.charCodeAt(aPos)) &&
      isDigit(b.charCodeAt(bPos))
    ) {
      if (firstDiff === 0) firstDiff = a.charCodeAt(aPos) - b.charCodeAt(bPos);
      aPos += 1;
      bPos += 1;
    }
    if (aPos < aLength && isDigit(a.charCodeAt(aPos))) return 1;
    if (bPos < bLength && isDigit(b.charCodeAt(bPos))) return -1;
    if (firstDiff !== 0) return firstDiff;
  }
  return 0;
}

/** `sort -V` on two keys (already cut out of their lines). */
export function versionCompare(a: string, b: string): number {
  if (a.length === 0) return b.length === 0 ? 0 : -1;
  if (b.length === 0) return 1;
  if (a.charCodeAt(0) === DOT) {
    if (b.charCodeAt(0) !== DOT) return -1;
    if (a.length === 1) return b.length === 1 ? 0 : -1;
    if (b.length === 1) return 1;
    const aDotDot = a.length === 2 && a.charCodeAt(1) === DOT;
    const bDotDot = b.length === 2 && b.charCodeAt(1) === DOT;
    if (aDotDot) return bDotDot ? 0 : -1;
    if (bDotDot) return 1;
  } else if (b.charCodeAt(0) === DOT) return 1;
  const aPrefix = prefixLength(a);
  const bPrefix = prefixLength(b);
  const onePass = aPrefix === a.length && bPrefix === b.length;
  const result = verrevcmp(a, aPrefix, b, bPrefix);
  return result !== 0 || onePass ? result : verrevcmp(a, a.length, b, b.length);
}
