import type { WcCounts } from "./wc-counter.js";
import type { WcSelection } from "./wc-options.js";

/** One output line: the selected counts right-aligned to `width`, then the name. */
export function formatCounts(
  counts: WcCounts,
  selection: WcSelection,
  width: number,
  name: string | undefined,
): string {
  const fields: number[] = [];
  if (selection.lines) fields.push(counts.lines);
  if (selection.words) fields.push(counts.words);
  if (selection.chars) fields.push(counts.bytes);
  if (selection.bytes) fields.push(counts.bytes);
  if (selection.maxLineLength) fields.push(counts.maxLineLength);
  const text = fields.map((value) => String(value).padStart(width, " ")).join(" ");
  return name === undefined ? `${text}\n` : `${text} ${name}\n`;
}

/**
 * GNU's `compute_number_width`: digits of the total size of the regular-file operands,
 * at least 7 when an operand is not a regular file (stdin, a directory), and 1 when
 * only one count of one operand is printed.
 */
export function numberWidth(
  kinds: readonly ("regular" | "other" | "failed")[],
  sizes: readonly number[],
  oneCountOneFile: boolean,
): number {
  if (oneCountOneFile) return 1;
  let minimum = 1;
  let total = 0;
  kinds.forEach((kind, index) => {
    if (kind === "regular") total += sizes[index] ?? 0;
    else if (kind === "other") minimum = 7;
  });
  return Math.max(String(total).length, minimum);
}
