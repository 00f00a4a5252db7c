// gnulib strnumcmp in the C locale (decimal point '.', no thousands separator), and
// coreutils' human-numeric order (a unit suffix K M G … ranks before the digits).

const isDigit = (code: number) => code >= 0x30 && code <= 0x39;
const UNIT_ORDER: Readonly<Record<string, number>> = {
  K: 1,
  k: 1,
  M: 2,
  G: 3,
  T: 4,
  P: 5,
  E: 6,
  Z: 7,
  Y: 8,
};

interface ParsedNumber {
  negative: boolean;
  integer: string;
  fraction: string;
  /** Index just past the number. */
  end: number;
}

function parseNumber(text: string, from: number, to: number): ParsedNumber {
  let at = from;
  const negative = at < to && text.charCodeAt(at) === 0x2d;
  if (negative) at += 1;
  while (at < to && text.charCodeAt(at) === 0x30) at += 1;
  const integerStart = at;
  while (at < to && isDigit(text.charCodeAt(at))) at += 1;
  const integer = text.slice(integerStart, at);
  let fraction = "";
  if (at < to && text.charCodeAt(at) === 0x2e) {
    const fractionStart = at + 1;
    at = fractionStart;
    while (at < to && isDigit(text.charCodeAt(at))) at += 1;
    fraction = text.slice(fractionStart, at).replace(/0+$/, "");
  }
  return { negative, integer, fraction, end: at };
}

function compareMagnitude(left: ParsedNumber, right: ParsedNumber): number {
  if (left.integer.length !== right.integer.length)
    return left.integer.length < right.integer.length ? -1 : 1;
  if (left.integer !== right.integer) return left.integer < right.integer ? -1 : 1;
  if (left.fraction === right.fraction) return 0;
  return left.fraction < right.fraction ? -1 : 1;
}

const isZero = (number: ParsedNumber) => number.integer === "" && number.fraction === "";

function skipBlanks(text: string, from: number, to: number): number {
  let at = from;
  while (at < to && (text.charCodeAt(at) === 0x20 || text.charCodeAt(at) === 0x09)) at += 1;
  return at;
}

function compareParsed(left: ParsedNumber, right: ParsedNumber): number {
  const leftNegative = left.negative && !isZero(left);
  const rightNegative = right.negative && !isZero(right);
  if (leftNegative !== rightNegative) return leftNegative ? -1 : 1;
  const magnitude = compareMagnitude(left, right);
  return leftNegative ? -magnitude : magnitude;
}

/** `sort -n` on the spans [aFrom, aTo) and [bFrom, bTo). */
export function numericCompare(
  a: string,
  aFrom: number,
  aTo: number,
  b: string,
  bFrom: number,
  bTo: number,
): number {
  const left = parseNumber(a, skipBlanks(a, aFrom, aTo), aTo);
  const right = parseNumber(b, skipBlanks(b, bFrom, bTo), bTo);
  return compareParsed(left, right);
}

function unitOrder(text: string, number: ParsedNumber, to: number): number {
  if (isZero(number)) return 0;
  const unit = number.end < to ? (text[number.end] as string) : "";
  const order = UNIT_ORDER[unit] ?? 0;
  return number.negative ? -order : order;
}

/** `sort -h`: unit order first (none < K < M …, negated for negatives), then `-n`. */
export function humanCompare(
  a: string,
  aFrom: number,
  aTo: number,
  b: string,
  bFrom: number,
  bTo: number,
): number {
  const left = parseNumber(a, skipBlanks(a, aFrom, aTo), aTo);
  const right = parseNumber(b, skipBlanks(b, bFrom, bTo), bTo);
  const difference = unitOrder(a, left, aTo) - unitOrder(b, right, bTo);
  return difference !== 0 ? difference : compareParsed(left, right);
}
