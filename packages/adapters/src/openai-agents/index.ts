// Public surface of @agent-bridle/adapters/openai-agents: explicit named exports only.
export type { AdapterOptions } from "../bound-tools.js";
export {
  type AgentsNeedsApproval,
  type AgentsToolsOptions,
  type BridleFunctionTool,
  type BridleToolParameters,
  bridleAgentsTools,
} from "./tools.js";
