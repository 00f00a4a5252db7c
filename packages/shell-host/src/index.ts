// Public surface of @agent-bridle/shell-host: explicit named exports only.
export { createHostShellTool, type HostShellToolOptions } from "./host-shell-tool.js";
export {
  DEFAULT_SHELL_LIMITS,
  type ShellInput,
  type ShellLimits,
  shellInputSchema,
} from "./shell-input.js";
