import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseCaveats, top } from "../../src/caveats/caveats.js";
import { caveatsJsonSchema } from "../../src/caveats/caveats-json-schema.js";
import { BridleError } from "../../src/errors/bridle-error.js";
import { ConfigurationError } from "../../src/errors/configuration-error.js";

const valid = {
  fs_read: { only: ["/srv/data"] },
  fs_write: "all",
  exec: { only: ["git"] },
  net: { only: [] },
  max_calls: { at_most: 20 },
  valid_for_generation: "all",
};

describe("parseCaveats: the exact JSON shape", () => {
  it("accepts the six fields and ignores unknown extra keys", () => {
    const parsed = parseCaveats({ ...valid, comment: "ignored" });
    expect(JSON.parse(JSON.stringify(parsed))).toEqual(valid);
  });

  it.each([
    ["a missing field", (({ net: _n, ...rest }) => rest)(valid)],
    ["'none' instead of {only: []}", { ...valid, exec: "none" }],
    ["a negative bound", { ...valid, max_calls: { at_most: -1 } }],
    ["a fractional bound", { ...valid, max_calls: { at_most: 1.5 } }],
    ["a wrong-typed entry", { ...valid, fs_read: { only: [42] } }],
    ["an extra key in a scope", { ...valid, exec: { only: [], also: [] } }],
    ["null", null],
  ])("rejects %s with CONFIG_INVALID_CAVEATS, never 'all'", (_label, input) => {
    let thrown: unknown;
    try {
      parseCaveats(input);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ConfigurationError);
    expect(BridleError.isInstance(thrown)).toBe(true);
    expect((thrown as ConfigurationError).code).toBe("CONFIG_INVALID_CAVEATS");
  });

  it("top() is every scope all and unlimited calls", () => {
    expect(top()).toEqual({
      fs_read: "all",
      fs_write: "all",
      exec: "all",
      net: "all",
      max_calls: "unlimited",
      valid_for_generation: "all",
    });
  });

  it("the published JSON Schema matches the schema in code (regenerate with the build)", () => {
    const published = JSON.parse(
      readFileSync(new URL("../../schema/caveats.schema.json", import.meta.url), "utf8"),
    );
    expect(published).toEqual(caveatsJsonSchema());
    expect(published.required).toEqual([
      "fs_read",
      "fs_write",
      "exec",
      "net",
      "max_calls",
      "valid_for_generation",
    ]);
  });
});
