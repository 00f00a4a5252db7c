// Public surface of @agent-bridle/shell-host: explicit named exports only.
export { createHostShellTool, type HostShellToolOptions } from "./host-shell-tool.js";
export { type ShellInput, shellInputSchema } from "./shell-input.js";
