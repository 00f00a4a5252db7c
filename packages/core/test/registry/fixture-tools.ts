import { z } from "zod";
import type { Caveats } from "../../src/caveats/caveats.js";
import type { ToolContext } from "../../src/context/tool-context.js";
import { createDenial } from "../../src/envelope/denial.js";
import { DeniedError } from "../../src/errors/denied-error.js";
import { deniedInvocation, ran } from "../../src/tool/invocation.js";
import { defineTool } from "../../src/tool/tool.js";

export const ANNOTATIONS = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
} as const;

/** Records every context it was invoked with, so tests can assert what ran. */
export function recordingTool(name = "echo", required?: Caveats) {
  const calls: ToolContext[] = [];
  const tool = defineTool({
    name,
    description: `Records its calls (${name}).`,
    inputSchema: z.object({ text: z.string().max(16).optional() }),
    annotations: ANNOTATIONS,
    ...(required ? { required } : {}),
    async invoke(args, cx) {
      calls.push(cx);
      return { echoed: args.text ?? "" };
    },
  });
  return { tool, calls };
}

/** A tool whose behaviour each test picks: ran, in-band denied, thrown denial, failure. */
export function scriptedTool(behaviour: "ran" | "in-band-denied" | "thrown-denied" | "failed") {
  let runs = 0;
  const tool = defineTool({
    name: `scripted_${behaviour.replaceAll("-", "_")}`,
    description: "Behaves as scripted.",
    inputSchema: z.object({}),
    annotations: ANNOTATIONS,
    async invoke() {
      return {};
    },
    async invokeAccounted() {
      const denial = createDenial(
        "exec",
        "x",
        "EXEC_NOT_GRANTED",
        'exec of "x" is not within the granted authority',
      );
      if (behaviour === "in-band-denied")
        return deniedInvocation({ denied: true, denials: [denial] });
      if (behaviour === "thrown-denied") throw new DeniedError(denial);
      runs += 1;
      if (behaviour === "failed") throw new Error("disk on fire");
      return ran({ ok: true });
    },
  });
  return { tool, runs: () => runs };
}
