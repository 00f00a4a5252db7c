// gnulib human_readable for `ls -h`: powers of 1024, rounded up (human_ceiling), one
// decimal below 10, the next unit once rounding reaches 1024.

const SUFFIXES = "KMGTPEZY";

export function humanSize(bytes: bigint): string {
  if (bytes < 1024n) return String(bytes);
  let exponent = 0;
  let divisor = 1n;
  while (bytes / divisor >= 1024n && exponent < SUFFIXES.length) {
    divisor *= 1024n;
    exponent += 1;
  }
  let amount = bytes / divisor;
  const remainder = bytes % divisor;
  if (amount < 10n) {
    // Tenths, rounded up.
    let tenths = (remainder * 10n) / divisor;
    if ((remainder * 10n) % divisor !== 0n) tenths += 1n;
    if (tenths === 10n) {
      amount += 1n;
      tenths = 0n;
    }
    if (amount < 10n) return `${amount}.${tenths}${SUFFIXES[exponent - 1]}`;
    return `${amount}${SUFFIXES[exponent - 1]}`;
  }
  if (remainder !== 0n) amount += 1n;
  if (amount === 1024n && exponent < SUFFIXES.length) return `1.0${SUFFIXES[exponent]}`;
  return `${amount}${SUFFIXES[exponent - 1]}`;
}
