// Public surface of @agent-bridle/mcp: explicit named exports only. Adding a name is an
// API decision and needs a changeset.
export {
  bridle,
  type CliIo,
  DEMO_PROGRAMS,
  demoGrant,
} from "./cli.js";
export {
  type ConfigFile,
  configFromDocument,
  type EngineSettings,
  type LimitSettings,
  readConfigFile,
} from "./config-file.js";
export { type DoctorReport, doctor, doctorExitCode, renderDoctor } from "./doctor.js";
export {
  CAVEATS_VARIABLE,
  configPath,
  denyAll,
  ENGINE_VARIABLE,
  type GrantResolution,
  MODE_VARIABLE,
  type Provenance,
  provenanceBanner,
  type ResolveOptions,
  resolveGrant,
  UNBRIDLE_ACK,
  UNBRIDLE_VARIABLE,
} from "./grant-source.js";
export { type RunningServer, SERVER_NAME, type ServeOptions, serveMcp } from "./server.js";
export { registryOptionsFor, runMcpServer, type ServerProcessOptions } from "./session.js";
