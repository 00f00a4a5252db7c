// Builds the Linux launcher (native/ → dist/native/bridle-launch) with the system compiler.
// Never fails the package build: without a compiler it copies the checksum-verified
// prebuilt binary; off Linux it does nothing (the sandbox backend is then `none`).
// `--prebuilt` rebuilds prebuilt/linux-x64/bridle-launch (-static -O2) and its sha256.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const pkg = join(dirname(fileURLToPath(import.meta.url)), "..");
const native = join(pkg, "native");
const builtPath = join(pkg, "dist", "native", "bridle-launch");
const prebuiltPath = join(pkg, "prebuilt", "linux-x64", "bridle-launch");

function note(text) {
  process.stderr.write(`build-launcher: ${text}\n`);
}

function sha256(path) {
  return createHash("sha256").update(readFileSync(path)).digest("hex");
}

function writeChecksum(path) {
  writeFileSync(`${path}.sha256`, `${sha256(path)}  bridle-launch\n`);
}

function make(target, out) {
  const result = spawnSync("make", ["-s", "-C", native, target, `OUT=${out}`], {
    stdio: ["ignore", "ignore", "pipe"],
    encoding: "utf8",
  });
  if (result.status === 0 && existsSync(out)) return true;
  note(`make ${target} failed: ${(result.error?.message ?? result.stderr ?? "").trim()}`);
  return false;
}

function copyPrebuilt() {
  if (process.arch !== "x64" || !existsSync(prebuiltPath)) return false;
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
    if (!make("static", prebuiltPath)) process.exitCode = 1;
    else writeChecksum(prebuiltPath);
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
