import { describe, expect, it } from "vitest";
import { parseCaveats } from "../../src/index.js";

const GRANT = {
  fs_read: "all",
  fs_write: "all",
  exec: "all",
  net: "all",
  max_calls: "unlimited",
  valid_for_generation: "all",
};

function messageOf(input: unknown): string {
  try {
    parseCaveats(input);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error("parsed");
}

describe("a grant that does not parse says what is wrong (issue 17 point 6)", () => {
  it("names a misspelt field and the field it was meant to be", () => {
    const { fs_read, ...rest } = GRANT;
    expect(messageOf({ ...rest, fs_raed: fs_read })).toBe(
      'invalid caveats: unknown field "fs_raed" (did you mean "fs_read"?); missing field "fs_read"',
    );
  });

  it("says what shape a scope and a count take", () => {
    expect(messageOf({ ...GRANT, exec: "any" })).toContain(
      'exec must be "all" or {"only": [strings]}, got "any"',
    );
    expect(messageOf({ ...GRANT, net: { only: ["a", 7] } })).toContain(
      "net.only[1] must be a string, got 7",
    );
    expect(messageOf({ ...GRANT, max_calls: 5 })).toContain(
      'max_calls must be "unlimited" or {"at_most": N}',
    );
    expect(messageOf([])).toContain("a grant is a JSON object with the fields fs_read");
  });

  it("a valid grant still parses (control)", () => {
    expect(parseCaveats({ ...GRANT, exec: { only: ["git"] } }).exec).toEqual({ only: ["git"] });
  });
});
