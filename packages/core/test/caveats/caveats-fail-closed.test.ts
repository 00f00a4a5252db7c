import { describe, expect, it } from "vitest";
import { caveats, leq, top } from "../../src/caveats/caveats.js";
import { atMost } from "../../src/caveats/count-bound.js";
import { none, only } from "../../src/caveats/scope.js";

// ADR 0019: `caveats()` fails closed on the four authority axes; the two limits stay open.
describe("caveats() fails closed on an axis it does not name", () => {
  it("a grant naming fs_read grants nothing to write, run or reach", () => {
    const grant = caveats({ fs_read: only(["/srv/work"]) });
    expect(grant).toEqual({
      fs_read: { only: ["/srv/work"] },
      fs_write: { only: [] },
      exec: { only: [] },
      net: { only: [] },
      max_calls: "unlimited",
      valid_for_generation: "all",
    });
  });

  it("no description at all grants no authority, and is below every other grant", () => {
    const nothing = caveats();
    expect(nothing.fs_read).toEqual(none());
    expect(nothing.fs_write).toEqual(none());
    expect(nothing.exec).toEqual(none());
    expect(nothing.net).toEqual(none());
    expect(caveats({})).toEqual(nothing);
    expect(leq(nothing, caveats({ exec: only(["echo"]) }))).toBe(true);
    expect(leq(top(), nothing)).toBe(false);
  });

  it('"all" must be written to grant an axis whole, and is kept as written', () => {
    const grant = caveats({ fs_read: "all", fs_write: "all", exec: "all", net: "all" });
    expect(grant).toEqual(top());
  });

  it("an omitted budget is unlimited and an omitted generation is any; given, they are kept", () => {
    expect(caveats({ exec: only(["echo"]) }).max_calls).toBe("unlimited");
    expect(caveats({ exec: only(["echo"]) }).valid_for_generation).toBe("all");
    const bounded = caveats({ max_calls: atMost(2), valid_for_generation: only([3]) });
    expect(bounded.max_calls).toEqual({ at_most: 2 });
    expect(bounded.valid_for_generation).toEqual({ only: [3] });
    expect(bounded.exec).toEqual(none());
  });

  it("an axis given as undefined (a JS caller) is refused, not filled in", () => {
    expect(() => caveats({ exec: undefined } as never)).toThrow(/exec/);
  });
});
