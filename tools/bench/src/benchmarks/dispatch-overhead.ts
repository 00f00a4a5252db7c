import { defineTool, Registry, top } from "@agent-bridle/core";
import { z } from "zod";
import type { RatioBenchmark } from "../benchmark.js";

// The whole dispatch path (argument validation with zod, authorization against the
// grant, the ToolContext mint, the result wrapping) around a tool that does nothing,
// against calling that same nothing directly. See README.md for the target.
const run = async (_args: Record<string, never>) => ({ ok: true });

const noop = defineTool({
  name: "noop",
  description: "Does nothing.",
  inputSchema: z.object({}),
  annotations: {
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  invoke: async (args) => run(args),
});

const registry = Registry.builder().tool(noop).build();
const grant = registry.mintGrant(top());

export const dispatchOverhead: RatioBenchmark = {
  kind: "ratio",
  name: "dispatch-overhead",
  description: "Registry.dispatch of a no-op tool vs calling the no-op directly",
  grant: "top()",
  mode: "in-process, no sandbox, no spawn",
  target: { allowanceMs: 0.05 },
  subject: async () => {
    await registry.dispatch("noop", {}, grant);
  },
  baseline: async () => {
    await run({});
  },
};
