// gnulib xstrtoumax with coreutils' size suffixes: b=512, k/K=1024, then M G T P E Z Y
// R Q; a trailing "B" makes the unit decimal (kB = 1000), "iB" keeps it binary.

const POWERS = "KMGTPEZY";
const UINTMAX = 2n ** 64n - 1n;

function suffixValue(suffix: string): bigint | undefined {
  if (suffix === "") return 1n;
  if (suffix === "b") return 512n;
  const letter = suffix[0] === "k" ? "K" : (suffix[0] as string);
  const power = POWERS.indexOf(letter);
  if (power === -1 || (letter === "K" && suffix[0] !== "k" && suffix[0] !== "K")) return undefined;
  const rest = suffix.slice(1);
  const base = rest === "B" ? 1000n : rest === "" || rest === "iB" ? 1024n : undefined;
  if (base === undefined) return undefined;
  return base ** BigInt(power + 1);
}

/**
 * A count with an optional size suffix (GNU 9.1 knows K…Y, not R or Q); `invalid` or
 * `overflow` (beyond 2^64-1) where GNU refuses it.
 */
export function parseSize(text: string): bigint | "invalid" | "overflow" {
  const match = /^\+?([0-9]+)(.*)$/.exec(text);
  if (match === null) return "invalid";
  const multiplier = suffixValue(match[2] as string);
  if (multiplier === undefined) return "invalid";
  const value = BigInt(match[1] as string) * multiplier;
  return value > UINTMAX ? "overflow" : value;
}
