import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type Caveats, caveats, leq, meet, parseCaveats, top } from "../../src/caveats/caveats.js";
import type { CountBound } from "../../src/caveats/count-bound.js";
import { only, type Scope } from "../../src/caveats/scope.js";

const item = fc.constantFrom("a", "b", "c", "/repo", "/repo/src", "git", "é");
const stringScope: fc.Arbitrary<Scope<string>> = fc.oneof(
  fc.constant("all" as const),
  fc.array(item, { maxLength: 5 }).map((items) => only(items)),
);
// net entries are host patterns (network.md §3): a path is not one.
const host = fc.constantFrom("a", "b", "example.com", "*.example.com", "localhost:3000", "::1");
const hostScope: fc.Arbitrary<Scope<string>> = fc.oneof(
  fc.constant("all" as const),
  fc.array(host, { maxLength: 5 }).map((items) => only(items)),
);
const generationScope: fc.Arbitrary<Scope<number>> = fc.oneof(
  fc.constant("all" as const),
  fc.array(fc.integer({ min: 0, max: 5 }), { maxLength: 4 }).map((items) => only(items)),
);
const countBound: fc.Arbitrary<CountBound> = fc.oneof(
  fc.constant("unlimited" as const),
  fc.integer({ min: 0, max: 10 }).map((at_most) => ({ at_most })),
);
const caveatsArbitrary: fc.Arbitrary<Caveats> = fc
  .record({
    fs_read: stringScope,
    fs_write: stringScope,
    exec: stringScope,
    net: hostScope,
    max_calls: countBound,
    valid_for_generation: generationScope,
  })
  .map((value) => parseCaveats(value));

const sameCaveats = (a: Caveats, b: Caveats) => leq(a, b) && leq(b, a);

describe("Caveats lattice laws (property-tested)", () => {
  it("leq is a partial order: reflexive, antisymmetric, transitive", () => {
    fc.assert(
      fc.property(caveatsArbitrary, caveatsArbitrary, caveatsArbitrary, (a, b, c) => {
        expect(leq(a, a)).toBe(true);
        if (leq(a, b) && leq(b, a)) expect(JSON.stringify(a)).toBe(JSON.stringify(b));
        if (leq(a, b) && leq(b, c)) expect(leq(a, c)).toBe(true);
      }),
    );
  });

  it("meet is the greatest lower bound", () => {
    fc.assert(
      fc.property(caveatsArbitrary, caveatsArbitrary, caveatsArbitrary, (a, b, c) => {
        const m = meet(a, b);
        expect(leq(m, a) && leq(m, b)).toBe(true);
        if (leq(c, a) && leq(c, b)) expect(leq(c, m)).toBe(true);
      }),
    );
  });

  it("meet is commutative, associative and idempotent; top is its identity", () => {
    fc.assert(
      fc.property(caveatsArbitrary, caveatsArbitrary, caveatsArbitrary, (a, b, c) => {
        expect(sameCaveats(meet(a, b), meet(b, a))).toBe(true);
        expect(sameCaveats(meet(meet(a, b), c), meet(a, meet(b, c)))).toBe(true);
        expect(sameCaveats(meet(a, a), a)).toBe(true);
        expect(sameCaveats(meet(a, top()), a)).toBe(true);
        expect(leq(a, top())).toBe(true);
      }),
    );
  });

  it("meet never amplifies: the result is below both operands on every axis", () => {
    fc.assert(
      fc.property(caveatsArbitrary, caveatsArbitrary, (a, b) => {
        const m = meet(a, b);
        expect(leq(m, a)).toBe(true);
        expect(leq(m, b)).toBe(true);
      }),
    );
  });

  it("serialization round-trips through the exact JSON shape", () => {
    fc.assert(
      fc.property(caveatsArbitrary, (a) => {
        expect(parseCaveats(JSON.parse(JSON.stringify(a)))).toEqual(a);
      }),
    );
  });
});

describe("lattice membership is exact strings, not path containment", () => {
  it("only[/repo] ⊓ only[/repo/src] = only[]", () => {
    const m = meet(
      caveats({ fs_read: { only: ["/repo"] }, fs_write: "all", exec: "all", net: "all" }),
      caveats({ fs_read: { only: ["/repo/src"] }, fs_write: "all", exec: "all", net: "all" }),
    );
    expect(m.fs_read).toEqual({ only: [] });
  });

  it("only collapses duplicates and sorts", () => {
    expect(
      caveats({ fs_read: "all", fs_write: "all", exec: { only: ["ls", "echo", "ls"] }, net: "all" })
        .exec,
    ).toEqual({
      only: ["echo", "ls"],
    });
  });
});
