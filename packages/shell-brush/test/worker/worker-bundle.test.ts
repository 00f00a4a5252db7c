import { statSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { workerFilePath } from "../../src/tool/worker-file.js";

/**
 * Every cold worker deserialises the bundle's startup snapshot, so its size is start-up
 * time (~17 ms per MB of snapshot on a 2-vCPU VM). Importing zod as `{ z }` once pulled
 * every zod locale into it (1.2 MB of bundle instead of ~0.45 MB).
 */
const BUDGET_BYTES = 600 * 1024;

describe("the bundled bash worker", () => {
  it(`stays under ${BUDGET_BYTES / 1024} KiB (no zod locales, whitespace minified)`, () => {
    expect(statSync(workerFilePath()).size).toBeLessThan(BUDGET_BYTES);
  });
});
