import { describe, expect, it } from "vitest";
import { z } from "zod";
import { caveats, top } from "../../src/caveats/caveats.js";
import { Registry } from "../../src/registry/registry.js";
import { defineTool } from "../../src/tool/tool.js";
import { ANNOTATIONS, recordingTool, scriptedTool } from "./fixture-tools.js";

const once = caveats({
  fs_read: "all",
  fs_write: "all",
  exec: "all",
  net: "all",
  max_calls: { at_most: 1 },
});

describe("Registry dispatch (reference cases 13–17)", () => {
  it("case 13: unknown tool is TOOL_NOT_FOUND and charges nothing", async () => {
    const registry = Registry.builder().tool(recordingTool().tool).build();
    const grant = registry.mintGrant(once);
    await expect(registry.dispatch("nope", {}, grant)).rejects.toMatchObject({
      code: "TOOL_NOT_FOUND",
      message: "no such tool: nope",
    });
    expect(grant.remainingCalls).toBe(1);
  });

  it("case 13: toolDefinitions are {name, description, inputSchema, annotations} sorted by name", () => {
    const registry = Registry.builder()
      .tool(recordingTool("zeta").tool)
      .tool(recordingTool("alpha").tool)
      .build();
    const definitions = registry.toolDefinitions();
    expect(definitions.map((d) => d.name)).toEqual(["alpha", "zeta"]);
    expect(Object.keys(definitions[0] ?? {})).toEqual([
      "name",
      "description",
      "inputSchema",
      "annotations",
    ]);
    expect(definitions[0]?.inputSchema).toMatchObject({
      type: "object",
      properties: { text: { type: "string", maxLength: 16 } },
    });
  });

  it("a later registration of the same name replaces the earlier", async () => {
    const first = recordingTool("same");
    const second = recordingTool("same");
    const registry = Registry.builder().tool(first.tool).tool(second.tool).build();
    await registry.dispatch("same", {}, registry.mintGrant(top()));
    expect([first.calls.length, second.calls.length]).toEqual([0, 1]);
  });

  it("invalid arguments are a thrown INVALID_ARGUMENTS naming the field and limit, not charged, nothing run", async () => {
    const { tool, calls } = recordingTool();
    const registry = Registry.builder().tool(tool).build();
    const grant = registry.mintGrant(once);
    await expect(registry.dispatch("echo", { text: "x".repeat(17) }, grant)).rejects.toMatchObject({
      code: "INVALID_ARGUMENTS",
      field: "text",
      message: expect.stringMatching(/text: .*16/),
    });
    expect(calls).toHaveLength(0);
    expect(grant.remainingCalls).toBe(1);
  });

  it.each([
    ["an in-band pre-run denial", "in-band-denied", 1],
    ["a thrown DeniedError", "thrown-denied", 1],
    ["a run that failed", "failed", 0],
    ["a successful run", "ran", 0],
  ] as const)("case 14: %s leaves %i call(s) of at_most(1)", async (_label, behaviour, left) => {
    const { tool } = scriptedTool(behaviour);
    const registry = Registry.builder().tool(tool).build();
    const grant = registry.mintGrant(once);
    const outcome = registry.dispatch(tool.name, {}, grant);
    if (behaviour === "thrown-denied")
      await expect(outcome).rejects.toMatchObject({ code: "EXEC_NOT_GRANTED" });
    else if (behaviour === "failed") {
      // The raw error stays on `cause`; the message never carries its text.
      await expect(outcome).rejects.toMatchObject({
        code: "TOOL_FAILED",
        message: "tool execution failed",
      });
      await expect(outcome).rejects.toHaveProperty("cause.message", "disk on fire");
    } else await expect(outcome).resolves.toBeDefined();
    expect(grant.remainingCalls).toBe(left);
  });

  it("case 14: the in-band denial is returned as a value", async () => {
    const { tool } = scriptedTool("in-band-denied");
    const registry = Registry.builder().tool(tool).build();
    await expect(registry.dispatch(tool.name, {}, registry.mintGrant(once))).resolves.toMatchObject(
      { denied: true },
    );
  });

  it("case 15: the budget is unforgeable: clones share it, other registries do not regenerate it", async () => {
    const { tool, calls } = recordingTool();
    const first = Registry.builder().tool(tool).build();
    const grant = first.mintGrant(once);
    const clone = grant.clone();
    await first.dispatch("echo", {}, clone);
    expect(grant.remainingCalls).toBe(0);
    const second = Registry.builder().tool(tool).build();
    await expect(second.dispatch("echo", {}, grant)).rejects.toMatchObject({
      code: "BUDGET_EXHAUSTED",
    });
    const rebuilt = Registry.builder().tool(tool).build();
    await expect(rebuilt.dispatch("echo", {}, clone)).rejects.toMatchObject({
      code: "BUDGET_EXHAUSTED",
    });
    expect(calls).toHaveLength(1);
    // Two mints of equal caveats have independent budgets.
    await expect(first.dispatch("echo", {}, first.mintGrant(once))).resolves.toEqual({
      echoed: "",
    });
  });

  it("case 16: 64 concurrent dispatches on at_most(20) admit exactly 20", async () => {
    const { tool, calls } = recordingTool();
    const registry = Registry.builder().tool(tool).build();
    const grant = registry.mintGrant(
      caveats({
        fs_read: "all",
        fs_write: "all",
        exec: "all",
        net: "all",
        max_calls: { at_most: 20 },
      }),
    );
    const results = await Promise.allSettled(
      Array.from({ length: 64 }, () => registry.dispatch("echo", {}, grant)),
    );
    const refused = results.filter((r) => r.status === "rejected");
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(20);
    expect(refused).toHaveLength(44);
    for (const r of refused)
      expect((r as PromiseRejectedResult).reason).toMatchObject({ code: "BUDGET_EXHAUSTED" });
    expect(calls).toHaveLength(20);
    expect(grant.remainingCalls).toBe(0);
  });

  it("case 17: one-shot dispatch: at_most(0) refuses, at_most(1) runs, in-band denial returned", async () => {
    const { tool, calls } = recordingTool();
    const denied = scriptedTool("in-band-denied");
    const registry = Registry.builder().tool(tool).tool(denied.tool).build();
    await expect(
      registry.dispatchOneshot(
        "echo",
        {},
        caveats({
          fs_read: "all",
          fs_write: "all",
          exec: "all",
          net: "all",
          max_calls: { at_most: 0 },
        }),
      ),
    ).rejects.toMatchObject({
      code: "BUDGET_EXHAUSTED",
    });
    expect(calls).toHaveLength(0);
    await expect(registry.dispatchOneshot("echo", { text: "hi" }, once)).resolves.toEqual({
      echoed: "hi",
    });
    await expect(registry.dispatchOneshot(denied.tool.name, {}, once)).resolves.toMatchObject({
      denied: true,
    });
  });

  it("a generation refusal is thrown and not charged", async () => {
    const { tool, calls } = recordingTool();
    const registry = Registry.builder().tool(tool).generation(7).build();
    const grant = registry.mintGrant(
      caveats({
        fs_read: "all",
        fs_write: "all",
        exec: "all",
        net: "all",
        max_calls: { at_most: 1 },
        valid_for_generation: { only: [3] },
      }),
    );
    await expect(registry.dispatch("echo", {}, grant)).rejects.toMatchObject({
      code: "GENERATION_INVALID",
    });
    expect(grant.remainingCalls).toBe(1);
    expect(calls).toHaveLength(0);
  });

  it("an already-aborted signal refuses before anything is charged or run", async () => {
    const { tool, calls } = recordingTool();
    const registry = Registry.builder().tool(tool).build();
    const grant = registry.mintGrant(once);
    await expect(
      registry.dispatch("echo", {}, grant, { signal: AbortSignal.abort() }),
    ).rejects.toThrow();
    expect(grant.remainingCalls).toBe(1);
    expect(calls).toHaveLength(0);
  });

  it("the signal reaches the tool", async () => {
    const { tool, calls } = recordingTool();
    let seen: AbortSignal | undefined;
    const registry = Registry.builder()
      .tool({
        ...tool,
        invokeAccounted: async (_args, cx, { signal }) => {
          seen = signal;
          calls.push(cx);
          return { kind: "ran", value: { echoed: "" } };
        },
      })
      .build();
    const controller = new AbortController();
    await registry.dispatch("echo", {}, registry.mintGrant(top()), { signal: controller.signal });
    expect(seen).toBe(controller.signal);
  });

  it("calls without a signal each get their own (no listener piles up on a shared one)", async () => {
    const { tool } = recordingTool();
    const signals: AbortSignal[] = [];
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const registry = Registry.builder()
      .tool({
        ...tool,
        invokeAccounted: async (_args, _cx, { signal }) => {
          signals.push(signal);
          signal.addEventListener("abort", () => undefined, { once: true });
          await held;
          return { kind: "ran", value: { echoed: "" } };
        },
      })
      .build();
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on("warning", onWarning);
    try {
      const grant = registry.mintGrant(top());
      const calls = Array.from({ length: 12 }, () => registry.dispatch("echo", {}, grant));
      await new Promise((resolve) => setImmediate(resolve));
      release();
      await Promise.all(calls);
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off("warning", onWarning);
    }
    expect(signals).toHaveLength(12);
    expect(new Set(signals).size).toBe(12);
    expect(warnings.filter((warning) => warning.name === "MaxListenersExceededWarning")).toEqual(
      [],
    );
  });

  it("close() releases tools once and refuses later calls; asyncDispose closes", async () => {
    let closed = 0;
    const { tool } = recordingTool();
    const closing = {
      ...tool,
      close: async () => {
        closed += 1;
      },
    };
    const disposable = Registry.builder().tool(closing).build();
    await disposable.dispatch("echo", {}, disposable.mintGrant(top()));
    await disposable[Symbol.asyncDispose]();
    expect(closed).toBe(1);
    const registry = Registry.builder().tool(closing).build();
    await registry.close();
    await registry.close();
    expect(closed).toBe(2);
    await expect(registry.dispatch("echo", {}, registry.mintGrant(top()))).rejects.toMatchObject({
      code: "REGISTRY_CLOSED",
    });
  });
});

describe("Registry dispatch: a per-call output observer", () => {
  it("reaches the tool as InvokeOptions.observer, and is absent when not given", async () => {
    const seen: unknown[] = [];
    const tool = defineTool({
      name: "observed",
      description: "Records the observer it was invoked with.",
      inputSchema: z.object({}),
      annotations: ANNOTATIONS,
      async invoke(_args, _cx, options) {
        seen.push(options.observer);
        return {};
      },
    });
    const registry = Registry.builder().tool(tool).build();
    const grant = registry.mintGrant(top());
    const observer = () => {};
    await registry.dispatch("observed", {}, grant, { observer });
    await registry.dispatch("observed", {}, grant);
    expect(seen).toEqual([observer, undefined]);
  });
});
