// The bash worker's bundled entry. Run as a file (`node worker.mjs --agent-bridle-worker
// brush`) or from a V8 startup snapshot built from the same bundle (`node --snapshot-blob
// <blob> -- --agent-bridle-worker brush`), which skips loading, evaluating and compiling
// the bundle: the snapshot is taken after a warm-up run of the interpreter.
import { startupSnapshot } from "node:v8";
import { warmUp } from "./snapshot-warm-up.js";
import { startWorker } from "./worker-main.js";

if (startupSnapshot.isBuildingSnapshot()) {
  void warmUp();
  startupSnapshot.setDeserializeMainFunction(() => startWorker(process.argv.slice(1)));
} else {
  startWorker(process.argv.slice(2));
}
