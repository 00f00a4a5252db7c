import { describe, expect, it } from "vitest";
import { caveats, parseCaveats, top } from "../../src/caveats/caveats.js";
import { mintGrant } from "../../src/grant/grant.js";
import { Registry } from "../../src/registry/registry.js";
import { recordingTool } from "./fixture-tools.js";

// Issue 17 point 5: `mintGrant` takes `Caveats` only, and still checks a JS caller's value.
describe("mintGrant takes Caveats, checked at run time", () => {
  const registry = Registry.builder().tool(recordingTool().tool).build();

  it("the type refuses a partial grant in its JSON shape", () => {
    const partial = { exec: { only: ["echo"] } };
    // @ts-expect-error a partial JSON object is not Caveats: build it with caveats({...}).
    expect(() => registry.mintGrant(partial)).toThrow(/mintGrant needs Caveats/);
    // @ts-expect-error the same for core's own mintGrant.
    expect(() => mintGrant(partial)).toThrow(/mintGrant needs Caveats/);
  });

  it("a JS caller's partial grant is refused with the fields it lacks, never filled with all", () => {
    const partial = { exec: { only: ["echo"] } } as never;
    for (const mint of [(value: never) => registry.mintGrant(value), mintGrant]) {
      let thrown: unknown;
      try {
        mint(partial);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toMatchObject({ code: "CONFIG_INVALID_CAVEATS" });
      const message = (thrown as Error).message;
      expect(message).toMatch(/^mintGrant needs Caveats \(build them with caveats\(\{\.\.\.\}\)/);
      for (const field of ["fs_read", "fs_write", "net", "max_calls", "valid_for_generation"]) {
        expect(message).toContain(field);
      }
    }
    expect(() => mintGrant("all" as never)).toThrow(/a grant is a JSON object/);
    expect(() => mintGrant(null as never)).toThrow(/mintGrant needs Caveats/);
  });

  it("Caveats from caveats(), top() or parseCaveats(json) mint a grant with its budget", async () => {
    const json = JSON.parse(JSON.stringify({ ...top(), max_calls: { at_most: 2 } }));
    const grant = registry.mintGrant(parseCaveats(json));
    expect(grant.remainingCalls).toBe(2);
    await registry.dispatch("echo", {}, grant);
    expect(grant.remainingCalls).toBe(1);
    expect(mintGrant(top()).remainingCalls).toBe(Number.POSITIVE_INFINITY);
    expect(mintGrant(caveats({ exec: "all" })).caveats.fs_read).toEqual({ only: [] });
  });
});
