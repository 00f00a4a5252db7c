// Public surface of @agent-bridle/adapters: the framework-neutral binding every adapter is
// built on. The adapters themselves are the subpath exports `/ai`, `/langchain` and
// `/openai-agents`, so a host loads only its own framework.
export {
  type AdapterOptions,
  type BoundCallOptions,
  type BoundTool,
  bindTools,
  type LiveOutput,
} from "./bound-tools.js";
export { type LiveChunk, type LiveStep, liveCall } from "./live-call.js";
