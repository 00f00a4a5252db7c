// Measures `/bin/true` through bridle-launch (Landlock engaged: writes restricted) against a
// plain child_process.spawn, interleaved, and prints the p50 of each and their ratio.
// Usage: node scripts/bench-launcher.mjs [runs] (after scripts/build-launcher.mjs).
import { spawn } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const pkg = join(dirname(fileURLToPath(import.meta.url)), "..");
const launcher = join(pkg, "dist", "native", "bridle-launch");
const runs = Number(process.argv[2] ?? 200);
const policy = "version 1\nfs-read all\nfs-write restricted\nexec all\nwrite /tmp\n";

function once(file, args, withPolicy) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const stdio = withPolicy ? ["ignore", "ignore", "inherit", "pipe"] : "ignore";
    const child = spawn(file, args, { stdio, detached: true, env: {} });
    if (withPolicy) child.stdio[3].end(policy);
    child.on("error", reject);
    child.on("close", (code) => {
      if (code !== 0) reject(new Error(`${file} exited ${code}`));
      else resolve(Number(process.hrtime.bigint() - started) / 1e6);
    });
  });
}

const p50 = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const plain = [];
const launched = [];
for (let i = 0; i < runs; i++) {
  plain.push(await once("/bin/true", [], false));
  launched.push(await once(launcher, ["--policy-fd", "3", "--", "/bin/true"], true));
}
const a = p50(plain);
const b = p50(launched);
process.stdout.write(
  `runs=${runs} plain p50=${a.toFixed(2)} ms launcher p50=${b.toFixed(2)} ms ratio=${(b / a).toFixed(2)}\n`,
);
