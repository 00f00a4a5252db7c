// The bash worker's bundled entry. Run as a file (`node worker.mjs --agent-bridle-worker
// brush`) or from a V8 startup snapshot built from the same bundle (`node --snapshot-blob
// <blob> -- --agent-bridle-worker brush`), which skips loading and evaluating the bundle.
import { startupSnapshot } from "node:v8";
import { startWorker } from "./worker-main.js";

if (startupSnapshot.isBuildingSnapshot()) {
  startupSnapshot.setDeserializeMainFunction(() => startWorker(process.argv.slice(1)));
} else {
  startWorker(process.argv.slice(2));
}
