// Public surface of agent-bridle: explicit named exports only. Adding a name is an API
// decision and needs a changeset.

// the bash engine (the default shell on Linux and macOS), and the non-executing inventory
// of a bash script for approval screens (reference §7)
export {
  type DescendantExec,
  type InspectedCommand,
  type InspectedConstruct,
  type InspectedRedirect,
  inspectShell,
  type ShellInspection,
  ShellInspectionError,
} from "@agent-bridle/bash";
// authority model
export {
  type ApprovalHook,
  type ApprovalRequest,
  type ApprovalVerdict,
  type AuditEvent,
  type AuditSink,
  type AxisEnforcement,
  atMost,
  BridleError,
  type BuiltInToolName,
  type Caveats,
  CaveatsSchema,
  CODE_DOCS,
  CODES,
  type Code,
  ConfigurationError,
  caveats,
  caveatsJsonSchema,
  caveatsToJson,
  DEFAULT_FLOOR,
  DEFAULT_SHELL_LIMITS,
  type Denial,
  type DeniedEnvelope,
  DeniedError,
  type Disclosure,
  type DispatchOptions,
  defaultPathPolicy,
  ENFORCED_AXES,
  type EnforcedAxis,
  type EnforcementFloor,
  type EnforcementReport,
  type ExecVia,
  enforcementReport,
  execViaOf,
  FS_AND_EXEC_COVERAGE,
  Grant,
  InvalidArgumentsError,
  isCode,
  isUnbridled,
  leq,
  meet,
  NO_BACKEND,
  NO_COVERAGE,
  none,
  only,
  type PathPolicy,
  type PathProbeReport,
  parseCaveats,
  pathProbeReport,
  Registry,
  RegistryBuilder,
  RegistryError,
  type RunEnvelope,
  type SandboxKind,
  SCHEMA_VERSION,
  type Scope,
  type ShellLimits,
  type ShellOutputObserver,
  setUnbridled,
  type Tool,
  type ToolAnnotations,
  type ToolDefinitionJson,
  type ToolEnvelope,
  ToolFailedError,
  type ToolResults,
  TRUSTED_PATH,
  top,
} from "@agent-bridle/core";
// file tools
export {
  createFileConfig,
  createFsTools,
  defaultBlockedPaths,
  type FileConfig,
  type FileConfigOptions,
  type FsToolResult,
  type FsTools,
} from "@agent-bridle/fs-tools";
// L3: what this host can enforce (for `bridle doctor` and hosts that want to show it)
export {
  type Backend,
  type BackendProbe,
  createHostBackend,
  DEFAULT_GIT_IDENTITY,
  DEFAULT_RESOURCE_LIMITS,
  type ExceededLimit,
  type GitIdentity,
  hostAllowListSupport,
  type LauncherBinary,
  type LauncherProbe,
  locateLauncher,
  probeLauncher,
  type ResourceLimits,
} from "@agent-bridle/sandbox";
export {
  BRUSH_COVERAGE,
  type BrushShellTool,
  type BrushShellToolOptions,
  createBrushShellTool,
} from "@agent-bridle/shell-brush";
// the host shell engine (opt-in only)
export {
  createHostShellTool,
  type HostShellToolOptions,
  type ShellInput,
} from "@agent-bridle/shell-host";
// the safe-subset engine (the default shell where the bash engine is not supported)
export {
  createShellTool,
  type ShellSafeInput,
  type ShellSafeLimits,
  type ShellToolOptions,
} from "@agent-bridle/shell-safe";
// the default registry
export { brushSupported } from "./brush-supported.js";
// the shell tool's description names the programs a grant lets it start (MCP, adapters)
export { grantedProgramsText, SHELL_TOOL_NAME } from "./granted-programs.js";
// what a model reads for a dispatch outcome (MCP and the agent-framework adapters)
export {
  type CappedOutput,
  capForModel,
  cappedText,
  cutMarker,
  DEFAULT_MODEL_OUTPUT_BYTES,
} from "./model-output.js";
export {
  denialText,
  type ModelResult,
  type ModelResultKind,
  type ModelResultOptions,
  modelResultOf,
  modelResultOfError,
} from "./model-result.js";
export { type RegistryOptions, registry, userPathPolicy } from "./registry.js";
export type { HostShellOptions, ShellOptions } from "./shell-engine.js";
export {
  type ShellChoice,
  type ShellSelection,
  type ShellSelectionOptions,
  shellSelection,
} from "./shell-selection.js";
