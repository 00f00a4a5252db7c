import type { LineComparator } from "./compare-lines.js";
import type { LineReader } from "./line-reader.js";

/** The first out-of-order line (1-based number and text), or undefined when sorted. */
export async function findDisorder(
  reader: LineReader,
  compare: LineComparator,
  unique: boolean,
): Promise<{ number: number; line: string } | undefined> {
  let previous = await reader.next();
  let number = 1;
  if (previous === null) return undefined;
  for (let line = await reader.next(); line !== null; line = await reader.next()) {
    number += 1;
    const difference = compare(previous, line);
    if (difference > 0 || (unique && difference === 0)) return { number, line };
    previous = line;
  }
  return undefined;
}
