import * as z from "zod";

/**
 * `Scope<T>` in its exact JSON shape: `"all"` or `{"only": [...]}`. `only` is a set:
 * duplicates collapse and it is kept sorted (as the reference's BTreeSet serializes).
 * Membership at the lattice layer is exact equality; path containment is an
 * enforcement concern (the path judge), not a lattice property.
 */
export type Scope<T> = "all" | { readonly only: readonly T[] };

export function scopeSchema<Item extends z.ZodType<string | number>>(item: Item) {
  return z.union([z.literal("all"), z.strictObject({ only: z.array(item) })]);
}

function compareItems<T extends string | number>(a: T, b: T): number {
  if (typeof a === "number" && typeof b === "number") return a - b;
  // Code-point order, as Rust orders Strings (UTF-16 code-unit order differs above U+FFFF).
  const left = Array.from(String(a), (c) => c.codePointAt(0) ?? 0);
  const right = Array.from(String(b), (c) => c.codePointAt(0) ?? 0);
  for (let index = 0; index < Math.min(left.length, right.length); index++) {
    const difference = (left[index] ?? 0) - (right[index] ?? 0);
    if (difference !== 0) return difference;
  }
  return left.length - right.length;
}

export function only<T extends string | number>(items: Iterable<T>): Scope<T> {
  const unique = [...new Set(items)].sort(compareItems);
  return Object.freeze({ only: Object.freeze(unique) });
}

/** `Only(∅)`: nothing on this axis. */
export function none<T extends string | number>(): Scope<T> {
  return only<T>([]);
}

export function isRestricted<T>(scope: Scope<T>): scope is { readonly only: readonly T[] } {
  return scope !== "all";
}

export function scopeContains<T>(scope: Scope<T>, item: T): boolean {
  return scope === "all" || scope.only.includes(item);
}

/** `x ⊑ all`; `all ⋢ only(s)`; `only(a) ⊑ only(b)` iff `a ⊆ b`. */
export function scopeLeq<T>(a: Scope<T>, b: Scope<T>): boolean {
  if (b === "all") return true;
  if (a === "all") return false;
  const superset = new Set(b.only);
  return a.only.every((item) => superset.has(item));
}

/** `all` is the identity; `only(a) ⊓ only(b) = only(a ∩ b)`. */
export function scopeMeet<T extends string | number>(a: Scope<T>, b: Scope<T>): Scope<T> {
  if (a === "all") return b;
  if (b === "all") return a;
  const right = new Set(b.only);
  return only(a.only.filter((item) => right.has(item)));
}

export function scopeEquals<T>(a: Scope<T>, b: Scope<T>): boolean {
  return scopeLeq(a, b) && scopeLeq(b, a);
}
