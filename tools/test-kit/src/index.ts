export { type ChildProcessRequest, childProcessRunner } from "./child-process-runner.js";
export { type PassThroughOpenMode, passThroughAccess } from "./pass-through-access.js";
export { NOWHERE_HOME, registryWith } from "./registry-with.js";
export { useTempDirs } from "./temp-dirs.js";
