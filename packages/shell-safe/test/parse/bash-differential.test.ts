import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseScript } from "../../src/index.js";
import { type BashSandbox, createBashSandbox, observeBash } from "./helpers/bash-oracle.js";
import { acceptedScript } from "./helpers/script-generator.js";
import { type Outcome, simulate } from "./helpers/simulate.js";

/**
 * The parser's reading of generated scripts, run by a reference interpreter over the
 * AST, must equal what real `bash --norc --noprofile -c` does: the argv each
 * `printf '%s\0'` prints, which files each redirection creates with what content,
 * and which commands the list operators run. Zero divergences allowed.
 */
const SCRIPT_COUNT = 2600;
const BATCH_SIZE = 325;
// CI runs a fixed seed so a landing is reproducible; local runs explore a new seed each
// time (a divergence prints its seed: replay it with SHELL_SAFE_ORACLE_SEED and add the
// case as a parser test). 925078229 is the seed that found the `z{}b,x}` divergence.
const CI_SEED = 925078229;
const seed = Number(
  process.env.SHELL_SAFE_ORACLE_SEED ?? (process.env.CI ? CI_SEED : Date.now() % 2_147_483_647),
);

let sandbox: BashSandbox;
beforeAll(async () => {
  sandbox = await createBashSandbox();
});
afterAll(async () => {
  await sandbox.dispose();
});

function chunk<T>(items: readonly T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let index = 0; index < items.length; index += size)
    chunks.push(items.slice(index, index + size));
  return chunks;
}

describe("differential against real bash", () => {
  it(`at least 2,000 generated accepted scripts mean exactly what bash does (seed ${seed})`, async () => {
    const generated = fc.sample(acceptedScript, { numRuns: SCRIPT_COUNT, seed });
    const accepted = generated.flatMap((source) => {
      const result = parseScript(source);
      return result.ok ? [{ source, script: result.script }] : [];
    });
    expect(accepted.length).toBeGreaterThanOrEqual(2000);
    const batches = chunk(accepted, BATCH_SIZE);
    const divergences: string[] = [];
    for (const pair of chunk(batches, 2)) {
      await Promise.all(
        pair.map(async (batch) => {
          const label = `b${batches.indexOf(batch)}`;
          const observed = await observeBash(
            sandbox,
            label,
            batch.map((item) => item.source),
          );
          batch.forEach((item, index) => {
            const bash = observed[index];
            if (bash === undefined) throw new Error("missing observation");
            const world = {
              environment: { HOME: sandbox.home, PWD: bash.cwd },
              home: sandbox.home,
              cwd: bash.cwd,
            };
            let ours: Outcome | string;
            try {
              ours = simulate(item.script, world);
            } catch (error) {
              ours = String(error);
            }
            const same =
              typeof ours !== "string" &&
              ours.stdout === bash.stdout &&
              sameFiles(ours.files, bash.files);
            if (!same) {
              divergences.push(
                `${JSON.stringify(item.source)}\n  ours: ${JSON.stringify(ours)}\n  bash: ${JSON.stringify({ stdout: bash.stdout, files: bash.files })}`,
              );
            }
          });
        }),
      );
    }
    expect(divergences.slice(0, 5), `seed ${seed}: ${divergences.length} divergences`).toEqual([]);
  }, 120_000);
});

function sameFiles(ours: Record<string, string>, bash: Record<string, string>): boolean {
  const keys = Object.keys(ours).sort();
  return (
    JSON.stringify(keys) === JSON.stringify(Object.keys(bash).sort()) &&
    keys.every((key) => ours[key] === bash[key])
  );
}
