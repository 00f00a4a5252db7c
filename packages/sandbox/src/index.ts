// Public surface of @agent-bridle/sandbox: explicit named exports only.

export type {
  Backend,
  BackendPrepareRequest,
  BackendProbe,
  PreparedBackend,
} from "./backend/backend.js";
// L3 backends
export { floorDenial } from "./backend/floor-denial.js";
export { createHostBackend } from "./backend/host-backend.js";
export { createLandlockBackend } from "./backend/landlock-backend.js";
export { LAUNCHER_LOADER, type LauncherLoader } from "./backend/launcher-loader.js";
export { NONE_BACKEND } from "./backend/none-backend.js";
export { DEFAULT_RESOURCE_LIMITS, type ResourceLimits } from "./backend/resource-limits.js";
export { createSeatbeltBackend } from "./backend/seatbelt-backend.js";
export { SEATBELT_READ_CLOSURE, sbplString, seatbeltProfile } from "./backend/seatbelt-profile.js";
export { type BackendSelection, selectBackend } from "./backend/select-backend.js";
// the private channel to a child (carried entry, bash worker)
export {
  ChannelReader,
  type FrameRead,
  NO_FRAME_IN_TIME,
} from "./channel/channel-reader.js";
export {
  CHILD_CHANNEL_FD,
  type ChildChannel,
  openChildChannel,
} from "./channel/child-channel.js";
export {
  encodeAck,
  encodeFrame,
  FRAME_HEADER_BYTES,
  type FrameSpec,
  frameBodyLength,
  frameMagic,
  MAGIC_BYTES,
} from "./channel/frames.js";
export { type ParentProof, proveParent } from "./channel/parent-proof.js";
export { openPrivateChannel, type PrivateChannel } from "./channel/private-channel.js";
export { readAck } from "./channel/read-ack.js";
export {
  buildChildEnvironment,
  type ChildEnvironmentRequest,
  droppedVariableNames,
} from "./funnel/child-environment.js";
export {
  DENIED_VARIABLE_PREFIXES,
  DENIED_VARIABLES,
  FUNNEL_OWNED_VARIABLES,
  isDeniedVariable,
} from "./funnel/environment-denylist.js";
export { HUGE_PAGES_ENVIRONMENT } from "./funnel/huge-pages.js";
export { limitExceededDenial, withLimitDenials } from "./funnel/limit-denial.js";
export { EXCEEDED_LIMITS, type ExceededLimit } from "./funnel/limit-trailer.js";
export {
  checkGitIdentity,
  DEFAULT_GIT_IDENTITY,
  type GitIdentity,
} from "./funnel/private-home.js";
export { pumpInput, type StdinFeed } from "./funnel/pump-input.js";
export { envelopeContextOf, nothingStarted, shellStatus } from "./funnel/run-result.js";
// the funnel every spawn goes through
export {
  createSandbox,
  type LaunchedFacts,
  type Sandbox,
  type SandboxOptions,
  type SandboxRunFacts,
  type SandboxRunOutcome,
  type SandboxRunRequest,
} from "./funnel/sandbox.js";
export {
  type SpawnConfinedOutcome,
  type SpawnConfinedRequest,
  spawnConfined,
} from "./funnel/spawn-confined.js";
export {
  type StreamingDescriptor,
  type StreamingSpawnOutcome,
  type StreamingSpawnRequest,
  spawnStreaming,
} from "./funnel/spawn-streaming.js";
export type {
  LaunchHold,
  LaunchRequest,
  SpawnResult,
  StageStdio,
  StageWrapper,
} from "./funnel/spawn-types.js";
export { checkWorkingDirectory } from "./funnel/working-directory.js";

// the Linux launcher
export {
  launcherCandidates,
  locateLauncher,
  locateLauncherIn,
  locateLauncherOnce,
  verifyLauncher,
} from "./launcher/locate.js";
export { renderLauncherPolicy } from "./launcher/policy.js";
export { probeLauncher } from "./launcher/probe.js";
export type {
  LauncherAxis,
  LauncherBinary,
  LauncherMaxProcsMode,
  LauncherPolicy,
  LauncherProbe,
  LauncherProxyPort,
} from "./launcher/types.js";

// host allow-lists: the egress proxy (network.md)
export {
  BRIDGE_HTTP_PORT,
  BRIDGE_SOCKS_PORT,
  createEgressProxy,
  DEFAULT_MAX_CONNECTIONS,
  type EgressProxy,
  type EgressProxyOptions,
} from "./network/egress-proxy.js";
export { hostAllowListSupport } from "./network/host-allow-list-support.js";
export type { HostResolver, NetTestHooks } from "./network/host-resolver.js";
export { isInternalAddress } from "./network/internal-address.js";
export { bindNetTestHooks } from "./network/net-test-hooks.js";
// the shell-tool kit: an engine supplies its description, schema and run
export type { CommonShellToolOptions } from "./shell-tool/common-shell-tool-options.js";
export {
  defineShellTool,
  type ShellEngine,
  type ShellToolSetup,
} from "./shell-tool/define-shell-tool.js";
export {
  type ShellCall,
  type ShellCallFacts,
  type ShellInvocation,
  type ShellRun,
  timeoutText,
} from "./shell-tool/shell-call.js";
