import type { LineComparator } from "./compare-lines.js";
import type { LineReader } from "./line-reader.js";

interface Head {
  line: string;
  run: number;
}

/**
 * K-way merge of sorted runs (a binary heap; ties go to the earlier run, so the merge
 * is stable). `emit` receives each line in order.
 */
export async function mergeRuns(
  readers: readonly LineReader[],
  compare: LineComparator,
  emit: (line: string) => Promise<void> | void,
): Promise<void> {
  const before = (a: Head, b: Head) => {
    const difference = compare(a.line, b.line);
    return difference < 0 || (difference === 0 && a.run < b.run);
  };
  const heap: Head[] = [];
  const siftDown = (from: number) => {
    let at = from;
    for (;;) {
      const left = at * 2 + 1;
      const right = left + 1;
      let best = at;
      if (left < heap.length && before(heap[left] as Head, heap[best] as Head)) best = left;
      if (right < heap.length && before(heap[right] as Head, heap[best] as Head)) best = right;
      if (best === at) return;
      [heap[at], heap[best]] = [heap[best] as Head, heap[at] as Head];
      at = best;
    }
  };
  for (const [run, reader] of readers.entries()) {
    const line = await reader.next();
    if (line !== null) heap.push({ line, run });
  }
  for (let index = (heap.length >> 1) - 1; index >= 0; index -= 1) siftDown(index);
  while (heap.length > 0) {
    const top = heap[0] as Head;
    const pending = emit(top.line);
    if (pending !== undefined) await pending;
    const next = await (readers[top.run] as LineReader).next();
    if (next === null) {
      const last = heap.pop() as Head;
      if (heap.length > 0) heap[0] = last;
    } else top.line = next;
    siftDown(0);
  }
}
