/** Lines of context around each change, as `diff -u` prints by default. */
const CONTEXT = 3;
/** Above this many cells the middle is shown as one removed and one added block. */
const MAX_LCS_CELLS = 4_000_000;

type Op = { readonly kind: " " | "-" | "+"; readonly text: string };

function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  return lines;
}

/** The changed middle as operations: a longest common subsequence when it is small enough. */
function middleOps(before: readonly string[], after: readonly string[]): Op[] {
  const [n, m] = [before.length, after.length];
  if (n * m > MAX_LCS_CELLS) {
    return [
      ...before.map((text) => ({ kind: "-" as const, text })),
      ...after.map((text) => ({ kind: "+" as const, text })),
    ];
  }
  const table = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i -= 1) {
    for (let j = m - 1; j >= 0; j -= 1) {
      const row = table[i] as Uint32Array;
      row[j] =
        before[i] === after[j]
          ? ((table[i + 1] as Uint32Array)[j + 1] as number) + 1
          : Math.max((table[i + 1] as Uint32Array)[j] as number, row[j + 1] as number);
    }
  }
  const ops: Op[] = [];
  let [i, j] = [0, 0];
  while (i < n || j < m) {
    if (i < n && j < m && before[i] === after[j]) {
      ops.push({ kind: " ", text: before[i] as string });
      [i, j] = [i + 1, j + 1];
    } else if (
      i < n &&
      (j === m ||
        ((table[i + 1] as Uint32Array)[j] as number) >=
          ((table[i] as Uint32Array)[j + 1] as number))
    ) {
      // removals before additions, as diff prints them
      ops.push({ kind: "-", text: before[i] as string });
      i += 1;
    } else {
      ops.push({ kind: "+", text: after[j] as string });
      j += 1;
    }
  }
  return ops;
}

function allOps(before: readonly string[], after: readonly string[]): Op[] {
  let start = 0;
  while (start < before.length && start < after.length && before[start] === after[start]) {
    start += 1;
  }
  let end = 0;
  while (
    end < before.length - start &&
    end < after.length - start &&
    before[before.length - 1 - end] === after[after.length - 1 - end]
  ) {
    end += 1;
  }
  const same = (text: string): Op => ({ kind: " ", text });
  return [
    ...before.slice(0, start).map(same),
    ...middleOps(before.slice(start, before.length - end), after.slice(start, after.length - end)),
    ...before.slice(before.length - end).map(same),
  ];
}

function range(start: number, count: number): string {
  return count === 1 ? `${start}` : `${count === 0 ? start - 1 : start},${count}`;
}

/**
 * A unified diff (`diff -u` format, 3 lines of context) from `before` to `after`, headed
 * `--- label` / `+++ label`; empty when they are equal. Lines are split on `\n`.
 */
export function unifiedDiff(label: string, before: string, after: string): string {
  if (before === after) return "";
  const ops = allOps(splitLines(before), splitLines(after));
  const out = [`--- ${label}`, `+++ ${label}`];
  let index = 0;
  while (index < ops.length) {
    while (index < ops.length && ops[index]?.kind === " ") index += 1;
    if (index >= ops.length) break;
    let last = index;
    for (let k = index; k < ops.length; k += 1) {
      if (ops[k]?.kind !== " ") last = k;
      else if (k - last > 2 * CONTEXT) break;
    }
    const from = Math.max(0, index - CONTEXT);
    const to = Math.min(ops.length, last + CONTEXT + 1);
    const hunk = ops.slice(from, to);
    const oldStart = ops.slice(0, from).filter((op) => op.kind !== "+").length + 1;
    const newStart = ops.slice(0, from).filter((op) => op.kind !== "-").length + 1;
    const oldCount = hunk.filter((op) => op.kind !== "+").length;
    const newCount = hunk.filter((op) => op.kind !== "-").length;
    out.push(`@@ -${range(oldStart, oldCount)} +${range(newStart, newCount)} @@`);
    for (const op of hunk) out.push(`${op.kind}${op.text}`);
    index = to;
  }
  return `${out.join("\n")}\n`;
}
