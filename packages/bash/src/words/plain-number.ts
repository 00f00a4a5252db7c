/** Plain decimal numbers, read without tokenizing and parsing (see `plainNumber`). */

const wrap = (value: bigint): bigint => BigInt.asIntN(64, value);

/**
 * The value of `text` when it is a plain decimal number, optionally negated (what
 * variables mostly hold), else null. Leading zeros (octal) take the general path.
 */
export function plainNumber(text: string): bigint | null {
  const negative = text.charCodeAt(0) === 45;
  const first = negative ? 1 : 0;
  const length = text.length;
  if (length === first || (text.charCodeAt(first) === 48 && length > first + 1)) return null;
  for (let index = first; index < length; index += 1) {
    const code = text.charCodeAt(index);
    if (code < 48 || code > 57) return null;
  }
  let value: bigint;
  if (length - first <= 15) {
    // Exact as a double: cheaper than BigInt's string parse.
    let number = 0;
    for (let index = first; index < length; index += 1)
      number = number * 10 + text.charCodeAt(index) - 48;
    value = BigInt(number);
  } else value = wrap(BigInt(negative ? text.slice(1) : text));
  return negative ? wrap(-value) : value;
}
