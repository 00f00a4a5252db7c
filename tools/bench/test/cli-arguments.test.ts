import { describe, expect, it } from "vitest";
import { parseArguments } from "../src/cli-arguments.js";

describe("parseArguments", () => {
  it("ignores the literal -- that `pnpm bench -- --json` passes through", () => {
    expect(parseArguments(["--", "--json"])).toEqual({
      ok: true,
      value: { json: true, help: false, names: [] },
    });
  });

  it("collects benchmark names", () => {
    expect(parseArguments(["dispatch-overhead", "--json", "other"])).toMatchObject({
      value: { json: true, names: ["dispatch-overhead", "other"] },
    });
  });

  it("refuses an unknown option", () => {
    expect(parseArguments(["--jsno"])).toEqual({ ok: false, error: "unknown option --jsno" });
  });
});
