import { afterEach, describe, expect, it } from "vitest";
import { checkBoundaries, LAYERS, type Violation } from "../src/index.js";
import { createWorkspace, type Tree } from "./helpers/temp-workspace.js";

const removals: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(removals.splice(0).map((remove) => remove()));
});

async function check(overrides: Tree): Promise<Violation[]> {
  const workspace = await createWorkspace(overrides);
  removals.push(workspace.remove);
  return checkBoundaries(workspace.root);
}

function rules(violations: readonly Violation[]) {
  return violations.map(({ file, line, rule }) => ({ file, line, rule }));
}

describe("@agent-bridle/bash, the language package (ADR 0022)", () => {
  it("sits at layer 0 beside core, not a shell engine", () => {
    expect(LAYERS.find((entry) => entry.directory === "bash")).toEqual({
      directory: "bash",
      packageName: "@agent-bridle/bash",
      layer: 0,
      shellEngine: false,
    });
  });

  it("may be imported by every engine (the clean tree imports it from layer 3)", async () => {
    const file = "packages/shell-safe/src/uses-bash.ts";
    expect(await check({ [file]: 'import { parseBash } from "@agent-bridle/bash";\n' })).toEqual(
      [],
    );
  });

  it("refuses I/O modules, other packages and environment reads in its shipped source", async () => {
    const file = "packages/bash/src/bad.ts";
    const source = [
      'import { readdir } from "node:fs/promises";',
      'import { join } from "node:path";',
      'import { Code } from "@agent-bridle/core";',
      'import picomatch from "picomatch";',
      "const home = process.env.HOME;",
      'import { local } from "./local.js";',
    ].join("\n");
    expect(rules(await check({ [file]: source }))).toEqual([
      { file, line: 1, rule: "bash-forbidden-module" },
      { file, line: 3, rule: "bash-forbidden-module" },
      { file, line: 3, rule: "layer-order" },
      { file, line: 4, rule: "bash-forbidden-module" },
      { file, line: 5, rule: "bash-process-env" },
    ]);
  });

  it("holds its tests to layering but not to the purity rules (fixtures need node APIs)", async () => {
    const file = "packages/bash/test/fixture.test.ts";
    const source = [
      'import { mkdtempSync } from "node:fs";',
      "const ci = process.env.CI;",
      'import { spawnConfined } from "@agent-bridle/sandbox";',
    ].join("\n");
    expect(rules(await check({ [file]: source }))).toEqual([
      { file, line: 3, rule: "layer-order" },
    ]);
  });

  it("refuses a second parser or globber in another package's source, not in bash's or in tests", async () => {
    const planted = {
      "packages/shell-safe/src/parse/lexer.ts": "export const lexer = 1;\n",
      "packages/shell-host/src/parser.ts": "export const parser = 1;\n",
      "packages/fs-tools/src/walk/glob-walk.ts": "export const glob = 1;\n",
      "packages/bash/src/parse/parser.ts": "export const parser = 1;\n",
      "packages/bash/src/words/pathname-glob.ts": "export const glob = 1;\n",
      "packages/shell-safe/test/parse/lexer.ts": "export const fixture = 1;\n",
    };
    expect(rules(await check(planted))).toEqual([
      { file: "packages/fs-tools/src/walk/glob-walk.ts", line: 1, rule: "second-bash-language" },
      { file: "packages/shell-host/src/parser.ts", line: 1, rule: "second-bash-language" },
      { file: "packages/shell-safe/src/parse/lexer.ts", line: 1, rule: "second-bash-language" },
    ]);
  });
});
