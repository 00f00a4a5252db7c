export { type ChildProcessRequest, childProcessRunner } from "./child-process-runner.js";
