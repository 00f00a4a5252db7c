// Builds the Linux launcher (native/ → dist/native/bridle-launch) with the system compiler.
// Never fails the package build: without a compiler it copies the checksum-verified
// prebuilt binary; off Linux it does nothing (the sandbox backend is then `none`).
// `--prebuilt` rebuilds the shipped static launchers (-static -O2 -s) and their sha256:
// prebuilt/linux-x64 with the system compiler on x64, prebuilt/linux-arm64 with the
// cross compiler `aarch64-linux-gnu-gcc` (Debian: apt-get install gcc-aarch64-linux-gnu),
// and prebuilt/sources.sha256, the digest of the native/ sources they were built from
// (tools/pack-check fails when the sources changed and the prebuilt were not rebuilt).
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const pkg = join(dirname(fileURLToPath(import.meta.url)), "..");
const native = join(pkg, "native");
const builtPath = join(pkg, "dist", "native", "bridle-launch");
const prebuiltFor = (arch) => join(pkg, "prebuilt", `linux-${arch}`, "bridle-launch");
// The cross compiler for each shipped architecture; the system compiler builds its own.
const crossCompilers = { x64: "x86_64-linux-gnu-gcc", arm64: "aarch64-linux-gnu-gcc" };

function note(text) {
  process.stderr.write(`build-launcher: ${text}\n`);
}

function sha256(path) {
  return createHash("sha256").update(readFileSync(path)).digest("hex");
}

function writeChecksum(path) {
  writeFileSync(`${path}.sha256`, `${sha256(path)}  bridle-launch\n`);
}

/** The digest of native/'s sources (name and bytes of each file, sorted by name). */
function sourcesDigest() {
  const hash = createHash("sha256");
  for (const name of readdirSync(native).sort()) {
    hash
      .update(`${name}\0`)
      .update(readFileSync(join(native, name)))
      .update("\0");
  }
  return hash.digest("hex");
}

function make(target, out, compiler) {
  const args = ["-s", "-C", native, target, `OUT=${out}`];
  if (compiler !== undefined) args.push(`CC=${compiler}`);
  const result = spawnSync("make", args, {
    stdio: ["ignore", "ignore", "pipe"],
    encoding: "utf8",
  });
  if (result.status === 0 && existsSync(out)) return true;
  note(`make ${target} failed: ${(result.error?.message ?? result.stderr ?? "").trim()}`);
  return false;
}

function copyPrebuilt() {
  const prebuiltPath = prebuiltFor(process.arch);
  if (!(process.arch in crossCompilers) || !existsSync(prebuiltPath)) return false;
  const expected = readFileSync(`${prebuiltPath}.sha256`, "utf8").split(/\s+/)[0];
  if (sha256(prebuiltPath) !== expected) {
    note("prebuilt checksum mismatch; not installing it");
    return false;
  }
  copyFileSync(prebuiltPath, builtPath);
  writeChecksum(builtPath);
  return true;
}

function main() {
  if (process.platform !== "linux") {
    note(`no launcher on ${process.platform}; the sandbox backend will be none`);
    return;
  }
  if (process.argv.includes("--prebuilt")) {
    for (const [arch, cross] of Object.entries(crossCompilers)) {
      const compiler = arch === process.arch ? undefined : cross;
      if (!make("static", prebuiltFor(arch), compiler)) process.exitCode = 1;
      else writeChecksum(prebuiltFor(arch));
    }
    if (process.exitCode === 1) return;
    writeFileSync(join(pkg, "prebuilt", "sources.sha256"), `${sourcesDigest()}  native/\n`);
    return;
  }
  mkdirSync(dirname(builtPath), { recursive: true });
  rmSync(builtPath, { force: true });
  rmSync(`${builtPath}.sha256`, { force: true });
  if (make("static", builtPath) || make("dynamic", builtPath)) {
    writeChecksum(builtPath);
    return;
  }
  if (copyPrebuilt()) {
    note("no working compiler; installed the verified prebuilt launcher");
    return;
  }
  note("no launcher built and no usable prebuilt; restricted spawns will be refused");
}

main();
