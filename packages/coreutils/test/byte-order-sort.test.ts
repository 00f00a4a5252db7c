import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sortByteOrder } from "../src/sort/byte-order-sort.js";
import { compareBytes } from "../src/sort/compare-lines.js";

const reference = (lines: readonly string[]) => [...lines].sort(compareBytes);

function sorted(lines: readonly string[]): string[] {
  const work = [...lines];
  sortByteOrder(work);
  return work;
}

/** Lines over a tiny alphabet (incl. NUL and high bytes): many ties, prefixes, duplicates. */
const line = fc
  .array(fc.constantFrom("\0", "a", "b", "\x7f", "\x80", "\xff"), { maxLength: 14 })
  .map((codes) => codes.join(""));

describe("sortByteOrder (MSD radix over packed prefixes)", () => {
  it("equals the byte-order comparison sort on generated lines", () => {
    fc.assert(
      fc.property(fc.array(line, { maxLength: 400 }), (lines) => {
        expect(sorted(lines)).toEqual(reference(lines));
      }),
      { numRuns: 200 },
    );
  });

  it("handles lines that end inside the key, NUL padding and long shared prefixes", () => {
    const shared = "p".repeat(60);
    const lines: string[] = [];
    for (let index = 0; index < 3000; index += 1) {
      const tail = (index * 7919) % 1000;
      lines.push(`${shared}${tail}`, `${shared}${"\0".repeat(index % 4)}`, "ab", "ab\0", "a");
    }
    lines.push("", "", "\xff\xff\xff\xff\xff\xff\xff");
    expect(sorted(lines)).toEqual(reference(lines));
  });

  it("sorts large random inputs (several key widths) and many duplicates", () => {
    let seed = 11;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed;
    };
    for (const count of [17, 70_000, 200_000]) {
      const lines = Array.from({ length: count }, () =>
        random() % 5 === 0 ? "dup" : `${random().toString(36)} ${random() % 97}`,
      );
      expect(sorted(lines)).toEqual(reference(lines));
    }
  });
});
