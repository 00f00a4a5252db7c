import { type FunctionTool, type RunContext, tool } from "@openai/agents";
import type { ToolAnnotations } from "agent-bridle";
import { type AdapterOptions, type BoundTool, bindTools } from "../bound-tools.js";

/**
 * Which calls stop the run for a human through the Agents SDK's approval flow (an
 * interruption in `result.interruptions`; the host calls `state.approve()` or
 * `state.reject()` and runs the state again). A function is asked per call.
 */
export type AgentsNeedsApproval =
  | boolean
  | ((toolName: string, input: unknown) => boolean | Promise<boolean>);

export interface AgentsToolsOptions extends AdapterOptions {
  /** Default `false`: no SDK approval (the registry's approval hook, if any, still runs). */
  readonly needsApproval?: AgentsNeedsApproval | undefined;
}

/** The JSON Schema as the SDK's non-strict parameters type has it (passed through as is). */
export type BridleToolParameters = {
  type: "object";
  properties: Record<string, never>;
  required: never[];
  additionalProperties: true;
};

/**
 * A function tool of this adapter: JSON Schema parameters, the model's text as result,
 * and the registry's MCP annotations (the SDK's function tools have no field for them;
 * it ignores this one).
 */
export type BridleFunctionTool = FunctionTool<unknown, BridleToolParameters, string> & {
  readonly annotations: ToolAnnotations;
};

function agentsTool(bound: BoundTool, needsApproval: AgentsNeedsApproval): BridleFunctionTool {
  const functionTool = tool({
    name: bound.name,
    description: bound.description,
    parameters: bound.inputSchema as unknown as BridleToolParameters,
    // The registry's schemas are not OpenAI strict-mode schemas (optional fields, unions);
    // the registry validates the arguments itself and refuses invalid ones in-band.
    strict: false,
    needsApproval:
      typeof needsApproval === "boolean"
        ? needsApproval
        : async (_context: RunContext, input: unknown) => needsApproval(bound.name, input),
    execute: async (input, _context, details) => {
      const result = await bound.call(input, { signal: details?.signal });
      return result.text;
    },
    // Only an abort reaches here (refusals and failures are results): let the run end.
    errorFunction: null,
  });
  return Object.assign(functionTool, { annotations: bound.annotations });
}

/**
 * The registry's tools as OpenAI Agents SDK function tools (`tool()` of `@openai/agents`)
 * for an `Agent`, every call under `options.grant`. Parameters are the JSON Schemas the
 * registry advertises over MCP (non-strict); `execute` dispatches with the run's signal
 * (an abort ends the call's processes) and gives the model stdout, stderr, the exit code
 * and the denials; `needsApproval` uses the SDK's human-in-the-loop interruptions.
 */
export function bridleAgentsTools(options: AgentsToolsOptions): BridleFunctionTool[] {
  const needsApproval = options.needsApproval ?? false;
  return bindTools(options).map((bound) => agentsTool(bound, needsApproval));
}
