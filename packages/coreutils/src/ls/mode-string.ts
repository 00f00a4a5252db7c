// GNU filemodestring: the type letter and the nine permission letters.

const TYPE_BITS = 0o170000n;
const TYPES: ReadonlyMap<bigint, string> = new Map([
  [0o100000n, "-"],
  [0o040000n, "d"],
  [0o120000n, "l"],
  [0o020000n, "c"],
  [0o060000n, "b"],
  [0o010000n, "p"],
  [0o140000n, "s"],
]);

function triplet(mode: bigint, shift: bigint, special: bigint, setLetter: string): string {
  const bits = (mode >> shift) & 7n;
  const read = bits & 4n ? "r" : "-";
  const write = bits & 2n ? "w" : "-";
  const execute = bits & 1n;
  let third = execute ? "x" : "-";
  if (mode & special) third = execute ? setLetter : setLetter.toUpperCase();
  return `${read}${write}${third}`;
}

export function modeString(mode: bigint): string {
  const type = TYPES.get(mode & TYPE_BITS) ?? "?";
  return (
    type +
    triplet(mode, 6n, 0o4000n, "s") +
    triplet(mode, 3n, 0o2000n, "s") +
    triplet(mode, 0n, 0o1000n, "t")
  );
}

export const isDirectoryMode = (mode: bigint): boolean => (mode & TYPE_BITS) === 0o040000n;
export const isLinkMode = (mode: bigint): boolean => (mode & TYPE_BITS) === 0o120000n;
export const isRegularMode = (mode: bigint): boolean => (mode & TYPE_BITS) === 0o100000n;

/** `ls -F`'s indicator for a mode (0n: unknown, none). */
export function typeIndicator(mode: bigint): string {
  const type = mode & TYPE_BITS;
  if (type === 0o100000n) return mode & 0o111n ? "*" : "";
  if (type === 0o040000n) return "/";
  if (type === 0o120000n) return "@";
  if (type === 0o010000n) return "|";
  if (type === 0o140000n) return "=";
  return "";
}
