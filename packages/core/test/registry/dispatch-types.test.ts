import { describe, expect, expectTypeOf, it } from "vitest";
import { top } from "../../src/caveats/caveats.js";
import type { ToolEnvelope } from "../../src/envelope/envelope.js";
import { Registry } from "../../src/registry/registry.js";
import type { BuiltInToolName, ToolResults } from "../../src/registry/tool-results.js";
import { recordingTool } from "./fixture-tools.js";

// Issue 17 point 5: `dispatch` is typed by a built-in tool's name and stays `unknown` for
// any other. The `expectTypeOf` lines are checked by `tsc -p tsconfig.tests.json`.
describe("dispatch's result type follows the tool name", () => {
  const registry = Registry.builder().tool(recordingTool("custom").tool).build();

  it("a built-in name types the result, in each dispatch form", () => {
    expectTypeOf<ToolResults["shell"]>().toEqualTypeOf<ToolEnvelope>();
    expectTypeOf<"shell">().toExtend<BuiltInToolName>();
    const grant = registry.mintGrant(top());
    // Not awaited: no tool named "shell" is registered here; only the types are in question.
    const calls = [
      registry.dispatch("shell", {}, grant),
      registry.dispatchOneshot("shell", {}, top()),
      registry.dispatchWithStrengthFloor("shell", {}, grant, "kernel"),
    ] as const;
    expectTypeOf(calls[0]).resolves.toEqualTypeOf<ToolEnvelope>();
    expectTypeOf(calls[1]).resolves.toEqualTypeOf<ToolEnvelope>();
    expectTypeOf(calls[2]).resolves.toEqualTypeOf<ToolEnvelope>();
    return Promise.all(
      calls.map((call) => expect(call).rejects.toMatchObject({ code: "TOOL_NOT_FOUND" })),
    );
  });

  it("a custom tool's name, or a name only known at run time, resolves to unknown", async () => {
    const custom = registry.dispatch("custom", { text: "hi" }, registry.mintGrant(top()));
    expectTypeOf(custom).resolves.toBeUnknown();
    await expect(custom).resolves.toEqual({ echoed: "hi" });
    const name: string = "custom";
    expectTypeOf(registry.dispatchOneshot(name, {}, top())).resolves.toBeUnknown();
  });
});
