// Bundles the bash worker (spec §9): every call starts a fresh Node, so it loads one
// self-contained file, not a module graph. Then, when this Node can, builds a V8 startup
// snapshot of the same bundle (named for this Node's version and architecture): a worker
// started from it skips loading and evaluating the bundle. The engine falls back to the
// plain bundle when no snapshot matches the running Node.
import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = fileURLToPath(new URL("..", import.meta.url));
const out = `${root}/dist/worker`;
const common = {
  entryPoints: [`${root}/src/worker/worker-entry.ts`],
  bundle: true,
  platform: "node",
  target: "node20",
  conditions: ["@agent-bridle/source"],
  legalComments: "none",
  logLevel: "warning",
  // Whitespace and syntax only (names kept for stack traces): a smaller file and startup
  // snapshot, which every cold worker deserialises (~10 ms less per start on a 2-vCPU VM).
  minifyWhitespace: true,
  minifySyntax: true,
};

await build({ ...common, format: "esm", outfile: `${out}/worker.mjs` });
// The snapshot's source is a script: `import.meta` does not exist there. The modules that
// compute package paths at load time (the launcher's and the carried entry's) get a
// placeholder; the worker takes the launcher from its parent and runs no carried entry.
await build({
  ...common,
  format: "cjs",
  outfile: `${out}/worker.cjs`,
  define: { "import.meta.url": '"file:///agent-bridle-worker-snapshot/"' },
});

// Must match the engine's worker argv (src/tool/worker-file.ts): a snapshot only loads
// under the V8 flags it was built with.
const V8_FLAGS = ["--no-lazy-feedback-allocation"];
const blob = `${out}/worker-${process.version}-${process.arch}.blob`;
const snapshot = spawnSync(
  process.execPath,
  [...V8_FLAGS, "--snapshot-blob", blob, "--build-snapshot", `${out}/worker.cjs`],
  { stdio: ["ignore", "inherit", "inherit"] },
);
if (snapshot.status !== 0) {
  rmSync(blob, { force: true });
  process.stderr.write("shell-brush: no startup snapshot for this Node; workers load the bundle\n");
}
