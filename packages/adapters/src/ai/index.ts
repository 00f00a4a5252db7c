// Public surface of @agent-bridle/adapters/ai: explicit named exports only.
export type { AdapterOptions } from "../bound-tools.js";
export { type BridleToolOutput, type ToolResultOutput, toModelOutputOf } from "./tool-output.js";
export {
  type AiNeedsApproval,
  type AiToolSetOptions,
  type BridleTool,
  bridleToolSet,
} from "./tool-set.js";
