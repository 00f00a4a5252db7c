import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UTILITIES } from "../src/index.js";
import { runGnu } from "./helpers/run-gnu.js";
import { createTestOpener } from "./helpers/test-opener.js";

let root: string;
let spill: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "coreutils-spill-"));
  spill = mkdtempSync(join(tmpdir(), "coreutils-spill-tmp-"));
  let seed = 7;
  const random = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed;
  };
  const lines = Array.from(
    { length: 20_000 },
    () => `${random() % 5000} ${String.fromCharCode(97 + (random() % 26))}${random() % 977}`,
  );
  writeFileSync(join(root, "input"), `${lines.join("\n")}\n`);
});
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(spill, { recursive: true, force: true });
});

async function sortWithSpill(argv: string[]) {
  const chunks: Buffer[] = [];
  let runsSeen = 0;
  const status = await UTILITIES.sort({
    argv,
    stdin: (async function* () {})(),
    stdout: {
      write: (chunk) => {
        // Output starts during the merge: the spilled runs exist now.
        if (chunks.length === 0) runsSeen = readdirSync(spill).length;
        chunks.push(Buffer.from(chunk));
      },
    },
    stderr: { write: () => undefined },
    cwd: root,
    env: {},
    opener: createTestOpener({ root }),
    tempDir: spill,
    sortBufferBytes: 16 * 1024,
    onDenial: () => undefined,
  });
  return { status, stdout: Buffer.concat(chunks), runsSeen };
}

describe("sort spills sorted runs to the temp directory and merges them", () => {
  it.each([
    [["input"]],
    [["-n", "input"]],
    [["-u", "-k2", "input"]],
    [["-s", "-k1,1n", "input"]],
    [["-rn", "-k1,1", "input"]],
  ])("sort %j equals GNU with a 16 KiB buffer", async (argv) => {
    const ours = await sortWithSpill(argv);
    const gnu = runGnu("sort", argv, root);
    expect(ours.status).toBe(0);
    expect(ours.runsSeen).toBeGreaterThan(10);
    expect(ours.stdout.equals(gnu.stdout)).toBe(true);
    expect(readdirSync(spill)).toEqual([]);
  });
});
