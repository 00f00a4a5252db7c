// Public surface of @agent-bridle/adapters/langchain: explicit named exports only.
export type { AdapterOptions } from "../bound-tools.js";
export {
  bridleLangChainTools,
  type LangChainToolsOptions,
  LIVE_OUTPUT_EVENT,
  type LiveOutputEvent,
} from "./tools.js";
