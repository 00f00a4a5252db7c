import { spawnSync } from "node:child_process";
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from "node:fs";
import { lstat, open, readdir, readlink, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
// The bench package does not depend on coreutils (its manifest is not ours to change):
// import the built package by path; `pnpm bench` builds everything first.
import type { GatedOpener, GateOutcome } from "@agent-bridle/core";
import { UTILITIES, type UtilityName } from "@agent-bridle/coreutils";

/** A temp directory holding one generated fixture file, made in `setup`. */
export class CoreutilsFixture {
  #directory: string | undefined;

  get directory(): string {
    if (this.#directory === undefined) throw new Error("fixture not set up");
    return this.#directory;
  }

  create(name: string, content: () => Buffer[]): void {
    this.#directory = mkdtempSync(join(tmpdir(), "bench-coreutils-"));
    const handle = openSync(join(this.#directory, name), "w");
    try {
      for (const part of content()) writeFileSync(handle, part);
    } finally {
      closeSync(handle);
    }
  }

  remove(): void {
    if (this.#directory !== undefined) rmSync(this.#directory, { recursive: true, force: true });
    this.#directory = undefined;
  }
}

async function allowed<T>(act: () => Promise<T>): Promise<GateOutcome<T>> {
  try {
    return { ok: true, value: await act() };
  } catch (error) {
    return { ok: false, errno: (error as { code?: string }).code ?? "EIO" };
  }
}

/** An opener that admits everything (the subject's grant is the fixture directory). */
const OPEN_ALL: GatedOpener = {
  open: (path) => allowed(() => open(path, "r")),
  openWrite: (path) => allowed(() => open(path, "w")),
  stat: (path) => allowed(() => stat(path, { bigint: true })),
  lstat: (path) => allowed(() => lstat(path, { bigint: true })),
  readdir: (path) => allowed(() => readdir(path)),
  readlink: (path) => allowed(() => readlink(path)),
};

/** Runs one utility in-process, its output going to a sink that only counts bytes. */
export async function runInProcess(name: UtilityName, argv: string[], cwd: string): Promise<void> {
  let bytes = 0;
  const status = await UTILITIES[name]({
    argv,
    stdin: (async function* () {})(),
    stdout: {
      write: (chunk) => {
        bytes += chunk.length;
      },
    },
    stderr: { write: () => undefined },
    cwd,
    env: { LC_ALL: "C" },
    opener: OPEN_ALL,
    tempDir: cwd,
    onDenial: () => undefined,
  });
  if (status !== 0 || bytes === 0) throw new Error(`${name} failed (${status})`);
}

/** Runs GNU's utility as a process under LC_ALL=C, stdout to /dev/null. */
export function runGnu(name: string, argv: string[], cwd: string): void {
  const devNull = openSync("/dev/null", "w");
  try {
    const result = spawnSync(name, argv, {
      cwd,
      env: { LC_ALL: "C", PATH: "/usr/bin:/bin" },
      stdio: ["ignore", devNull, "ignore"],
    });
    if (result.status !== 0) throw new Error(`GNU ${name} failed (${result.status})`);
  } finally {
    closeSync(devNull);
  }
}

const MIB = 1024 * 1024;

/** ~200 MB of text lines of varying length (about 4 M lines), in 1 MiB parts. */
export function textFile(): Buffer[] {
  const words = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta"];
  const parts: Buffer[] = [];
  let seed = 1;
  for (let part = 0; part < 200; part += 1) {
    const lines: string[] = [];
    let size = 0;
    while (size < MIB) {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      const line = `${words[seed % 8]} ${seed} ${words[(seed >> 3) % 8]} ${"x".repeat(seed % 40)}`;
      lines.push(line);
      size += line.length + 1;
    }
    parts.push(Buffer.from(`${lines.join("\n")}\n`));
  }
  return parts;
}

/** 1 M random lines (words and numbers) for sort. */
export function sortInput(): Buffer[] {
  const parts: Buffer[] = [];
  let seed = 3;
  for (let part = 0; part < 10; part += 1) {
    const lines: string[] = [];
    for (let index = 0; index < 100_000; index += 1) {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      lines.push(`${seed.toString(36)} ${seed % 9973}`);
    }
    parts.push(Buffer.from(`${lines.join("\n")}\n`));
  }
  return parts;
}
