import * as z from "zod";

/** `CountBound` in its exact JSON shape: `"unlimited"` or `{"at_most": n}`. */
export type CountBound = "unlimited" | { readonly at_most: number };

export const CountBoundSchema = z.union([
  z.literal("unlimited"),
  z.strictObject({ at_most: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER) }),
]);

export function atMost(limit: number): CountBound {
  return Object.freeze({ at_most: limit });
}

/** `x ⊑ unlimited`; `unlimited ⋢ at_most(n)`; `at_most(a) ⊑ at_most(b)` iff `a ≤ b`. */
export function countLeq(a: CountBound, b: CountBound): boolean {
  if (b === "unlimited") return true;
  if (a === "unlimited") return false;
  return a.at_most <= b.at_most;
}

/** The smaller bound; `unlimited` is the identity. */
export function countMeet(a: CountBound, b: CountBound): CountBound {
  if (a === "unlimited") return b;
  if (b === "unlimited") return a;
  return a.at_most <= b.at_most ? a : b;
}

/** The number of calls a bound admits (`Infinity` for unlimited). */
export function countLimit(bound: CountBound): number {
  return bound === "unlimited" ? Number.POSITIVE_INFINITY : bound.at_most;
}
