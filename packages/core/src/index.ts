// Public surface of @agent-bridle/core: explicit named exports only. Adding a name is
// an API decision and needs a changeset.

// access vocabulary (L2): gate outcomes, system error texts, the free devices
export { DEV_NULL, isFreeDevice, isNullDevice } from "./access/devices.js";
export { errnoOf, errnoText, hasErrnoText } from "./access/errno-text.js";
export type { GatedOpener, GateOutcome, GateRefusal } from "./access/gate-outcome.js";
export { refusalText } from "./access/refusal-text.js";
// audit
export {
  type AuditEvent,
  type AuditRecord,
  type AuditSink,
  type CallAuditSink,
  callAuditSink,
  containAuditSink,
  NULL_AUDIT_SINK,
  type StampedAuditSink,
} from "./audit/audit-event.js";
export {
  type Caveats,
  CaveatsSchema,
  caveats,
  caveatsToJson,
  leq,
  meet,
  parseCaveats,
  top,
} from "./caveats/caveats.js";
// authority model
export { caveatsJsonSchema } from "./caveats/caveats-json-schema.js";
export { checkNet, type NetDecision } from "./caveats/check-net.js";
export {
  atMost,
  type CountBound,
  CountBoundSchema,
  countLeq,
  countLimit,
  countMeet,
} from "./caveats/count-bound.js";
export {
  canonicalHost,
  type NetHostParse,
  type NetHostPattern,
  netHostMatches,
  parseNetHostPattern,
} from "./caveats/net-host-pattern.js";
export {
  isRestricted,
  none,
  only,
  type Scope,
  scopeContains,
  scopeEquals,
  scopeLeq,
  scopeMeet,
  scopeSchema,
} from "./caveats/scope.js";
// codes and errors
export { CODE_DOCS, CODES, type Code, isCode } from "./codes/codes.js";
export { type PathCheckOptions, ToolContext } from "./context/tool-context.js";
// enforcement
export { type AppliedBackend, NO_BACKEND } from "./enforcement/applied-backend.js";
export {
  type AxisEnforcement,
  AxisEnforcementSchema,
  compareEnforcement,
  ENFORCED_AXES,
  type EnforcedAxis,
} from "./enforcement/axis-enforcement.js";
export { effectiveSandboxKind } from "./enforcement/effective-sandbox-kind.js";
export {
  CONFINED_FLOOR,
  DEFAULT_FLOOR,
  type EnforcementFloor,
  EnforcementFloorSchema,
  floorFromScalar,
  joinFloors,
} from "./enforcement/enforcement-floor.js";
export {
  type EnforcementReport,
  EnforcementReportSchema,
} from "./enforcement/enforcement-report.js";
export { enforcementReport } from "./enforcement/enforcement-report-of.js";
export {
  type EngineCoverage,
  FS_AND_EXEC_COVERAGE,
  NO_COVERAGE,
} from "./enforcement/engine-coverage.js";
export { type ExecVia, execViaOf } from "./enforcement/exec-via.js";
export {
  type FloorShortfall,
  fenceStrength,
  unenforceableAxis,
} from "./enforcement/floor-check.js";
export { isLoopbackOnly, namesFullLoopback } from "./enforcement/loopback.js";
export { type SandboxKind, SandboxKindSchema } from "./enforcement/sandbox-kind.js";
// results
export {
  createDenial,
  type Denial,
  type DenialKind,
  DenialKindSchema,
  DenialSchema,
} from "./envelope/denial.js";
export {
  type DirectoryTreeResult,
  DirectoryTreeResultSchema,
  DirectoryTreeToolResultSchema,
} from "./envelope/directory-tree-result.js";
export {
  buildDisclosure,
  type Disclosure,
  type DisclosureFacts,
  DisclosureSchema,
  type HumanGate,
  HumanGateSchema,
} from "./envelope/disclosure.js";
export {
  buildDeniedEnvelope,
  buildRunEnvelope,
  type DeniedEnvelope,
  DeniedEnvelopeSchema,
  type EnvelopeContext,
  type RunEnvelope,
  RunEnvelopeSchema,
  type RunOutcome,
  type ToolEnvelope,
  ToolEnvelopeSchema,
} from "./envelope/envelope.js";
export {
  type FileInfoResult,
  FileInfoResultSchema,
  FileInfoToolResultSchema,
  type FileType,
  FileTypeSchema,
  fsToolResultSchema,
  type ListDirectoryResult,
  ListDirectoryResultSchema,
  ListDirectoryToolResultSchema,
  type ReadFileResult,
  ReadFileResultSchema,
  ReadFileToolResultSchema,
  type WriteFileResult,
  WriteFileResultSchema,
  WriteFileToolResultSchema,
} from "./envelope/fs-result.js";
export {
  type ListAllowedDirectoriesResult,
  ListAllowedDirectoriesResultSchema,
  ListAllowedDirectoriesToolResultSchema,
} from "./envelope/list-allowed-directories-result.js";
export { SCHEMA_VERSION } from "./envelope/schema-version.js";
export {
  type SearchFilesResult,
  SearchFilesResultSchema,
  SearchFilesToolResultSchema,
} from "./envelope/search-files-result.js";
export { BridleError } from "./errors/bridle-error.js";
export { ConfigurationError } from "./errors/configuration-error.js";
export { DeniedError } from "./errors/denied-error.js";
export { InvalidArgumentsError } from "./errors/invalid-arguments-error.js";
export { RegistryError, type RegistryErrorCode } from "./errors/registry-error.js";
export { ToolFailedError } from "./errors/tool-failed-error.js";
// exec identity
export { checkExec, type ExecDecision, type ProgramIdentity } from "./exec/check-exec.js";
export { isBareProgram, resolveOnSearchPath } from "./exec/resolve-program.js";
export { TRUSTED_PATH } from "./exec/trusted-path.js";
export { Gate, type GateOptions } from "./gate/gate.js";
export { Grant, mintGrant } from "./grant/grant.js";
export { joinOutputObservers } from "./observer/join-output-observers.js";
// output observer
export {
  createOutputSession,
  type OutputSession,
  type OutputSessionOptions,
  type OutputSessionState,
} from "./observer/output-session.js";
export type { ShellInvocationId } from "./observer/shell-invocation-id.js";
export {
  type NormalizedOutputObserver,
  normalizeOutputObserver,
  SHELL_OUTPUT_STREAMS,
  type ShellOutputCallback,
  type ShellOutputObserver,
  type ShellOutputObserverObject,
  type ShellOutputStream,
} from "./observer/shell-output-observer.js";
// paths: the one judge and the mediated opens
export {
  type BlockedDecision,
  checkBlocked,
  foldPathName,
  matchBlockedEntry,
} from "./paths/blocked-match.js";
export { checkContained } from "./paths/check-contained.js";
export {
  type JudgedPath,
  type JudgePathRequest,
  judgePath,
  type PathDecision,
} from "./paths/judge-path.js";
export {
  type OpenDecision,
  type OpenedPath,
  type OpenMode,
  type OpenPathRequest,
  openPathRead,
  openPathWrite,
  type WriteOpenOptions,
} from "./paths/mediated-open.js";
export {
  type DefaultPathPolicyOptions,
  defaultPathPolicy,
  type PathOperation,
  type PathPolicy,
} from "./paths/path-policy.js";
export {
  type PathProbeMode,
  type PathProbeReport,
  pathProbeReport,
} from "./paths/path-probes.js";
export { isPlainPathText } from "./paths/path-text.js";
export type { FileIdentity } from "./paths/real-location.js";
export { removeDotSegments } from "./paths/remove-dot-segments.js";
export { isResolvedPathPolicy, resolvePathPolicy } from "./paths/resolve-path-policy.js";
export { isSameFile, sameFile } from "./paths/same-file.js";
export type {
  ApprovalHook,
  ApprovalRequest,
  ApprovalVerdict,
} from "./registry/approval.js";
export {
  type DispatchOptions,
  Registry,
  RegistryBuilder,
} from "./registry/registry.js";
export type { ToolDefinitionJson } from "./registry/tool-definitions.js";
export type { BuiltInToolName, ToolResults } from "./registry/tool-results.js";
// bash vocabulary shared by the engines that read bash
export { BASH_RESERVED_WORDS } from "./shell/bash-reserved-words.js";

// the common shell input (spec §14)
export {
  type BashScriptInput,
  bashScriptInputSchema,
  commonShellInputShape,
  DEFAULT_SHELL_LIMITS,
  SHELL_TOOL_ANNOTATIONS,
  type ShellLimits,
} from "./shell/common-shell-input.js";
export { deniedInvocation, type Invocation, ran } from "./tool/invocation.js";
export { defineTool, type InvokeOptions, type Tool, type ToolDefinition } from "./tool/tool.js";
export { type ToolAnnotations, ToolAnnotationsSchema } from "./tool/tool-annotations.js";
export { isUnbridled, setUnbridled } from "./unbridled/unbridled.js";
