export { type ChildProcessRequest, childProcessRunner } from "./child-process-runner.js";
export { ALLOCATE_6_GIB, ALLOCATE_16_MIB, forkLoop, WRITE_2_MIB } from "./limit-programs.js";
export { type LoopbackServers, MIB, startLoopbackServers } from "./loopback-servers.js";
export { type PassThroughOpenMode, passThroughAccess } from "./pass-through-access.js";
export {
  brushWorkers,
  chainBetween,
  descendantsOf,
  isSpawnServer,
  type LiveProcess,
  stillRunning,
  waitFor,
} from "./process-tree.js";
export { NOWHERE_HOME, registryWith } from "./registry-with.js";
export { useTempDirs } from "./temp-dirs.js";
export { tsLoaderPath } from "./ts-loader-path.js";
