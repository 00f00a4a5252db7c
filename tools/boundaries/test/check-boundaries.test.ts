import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { checkBoundaries, type Rule, type Violation } from "../src/index.js";
import { createWorkspace, manifest, type Tree } from "./helpers/temp-workspace.js";

const removals: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(removals.splice(0).map((remove) => remove()));
});

async function check(overrides: Tree): Promise<Violation[]> {
  const workspace = await createWorkspace(overrides);
  removals.push(workspace.remove);
  return checkBoundaries(workspace.root);
}

const header = "// planted by the test\nexport const before = 1;\n";

interface Case {
  readonly title: string;
  readonly file: string;
  readonly source: string;
  readonly rule: Rule;
  readonly line: number;
}

const cases: readonly Case[] = [
  {
    title: "same-layer import (fs-tools → coreutils)",
    file: "packages/fs-tools/src/bad.ts",
    source: `${header}import { x } from "@agent-bridle/coreutils";\n`,
    rule: "layer-order",
    line: 3,
  },
  {
    title: "upward import (sandbox → fs-tools), type-only",
    file: "packages/sandbox/src/bad.ts",
    source: `${header}\nimport type { X } from '@agent-bridle/fs-tools';\n`,
    rule: "layer-order",
    line: 4,
  },
  {
    title: "upward require (coreutils → agent-bridle)",
    file: "packages/coreutils/src/bad.js",
    source: `${header}const facade = require("agent-bridle");\n`,
    rule: "layer-order",
    line: 3,
  },
  {
    title: "upward re-export from a test file (sandbox → shell-host)",
    file: "packages/sandbox/test/bad.test.ts",
    source: `${header}export { y } from "@agent-bridle/shell-host";\n`,
    rule: "layer-order",
    line: 3,
  },
  {
    title: "engine → engine (shell-safe → shell-brush)",
    file: "packages/shell-safe/src/bad.ts",
    source: `${header}import "@agent-bridle/shell-brush";\n`,
    rule: "engine-to-engine",
    line: 3,
  },
  {
    title: "engine → engine by dynamic import (shell-host → shell-safe)",
    file: "packages/shell-host/src/bad.mts",
    source: `${header}const m = await import(\n  "@agent-bridle/shell-safe"\n);\n`,
    rule: "engine-to-engine",
    line: 4,
  },
  {
    title: "core imports node:child_process",
    file: "packages/core/src/bad.ts",
    source: `${header}import { spawn } from "node:child_process";\n`,
    rule: "core-forbidden-module",
    line: 3,
  },
  {
    title: "core imports net (bare)",
    file: "packages/core/src/bad.ts",
    source: `${header}import net from "net";\n`,
    rule: "core-forbidden-module",
    line: 3,
  },
  {
    title: "core imports execa",
    file: "packages/core/src/bad.ts",
    source: `${header}import { execa } from "execa";\n`,
    rule: "core-forbidden-module",
    line: 3,
  },
  {
    title: "core imports node:worker_threads with import = require",
    file: "packages/core/src/bad.ts",
    source: `${header}import threads = require("node:worker_threads");\n`,
    rule: "core-forbidden-module",
    line: 3,
  },
  {
    title: "core imports node:https dynamically",
    file: "packages/core/src/bad.ts",
    source: `${header}void import("node:https");\n`,
    rule: "core-forbidden-module",
    line: 3,
  },
  {
    title: "core reads process.env",
    file: "packages/core/src/bad.ts",
    source: `${header}export const home = process.env.HOME;\n`,
    rule: "core-process-env",
    line: 3,
  },
  {
    title: 'core reads process["env"]',
    file: "packages/core/src/bad.ts",
    source: `${header}export const all = process["env"];\n`,
    rule: "core-process-env",
    line: 3,
  },
  {
    title: "core destructures env from process",
    file: "packages/core/src/bad.ts",
    source: `${header}const { argv, env } = process;\n`,
    rule: "core-process-env",
    line: 3,
  },
  {
    title: "deep import into another package's src",
    file: "packages/fs-tools/src/bad.ts",
    source: `${header}import { z } from "@agent-bridle/core/src/registry/registry.js";\n`,
    rule: "deep-import",
    line: 3,
  },
  {
    title: "deep import into the facade's src",
    file: "packages/mcp/src/bad.ts",
    source: `${header}import { r } from "agent-bridle/src/index.js";\n`,
    rule: "deep-import",
    line: 3,
  },
  {
    title: "subpath missing from the exports map",
    file: "packages/sandbox/test/bad.test.ts",
    source: `${header}import { corpus } from "@agent-bridle/core/testing";\n`,
    rule: "deep-import",
    line: 3,
  },
  {
    title: "deep import from a tool",
    file: "tools/demo/src/bad.ts",
    source: `${header}import { x } from "@agent-bridle/core/dist/index.js";\n`,
    rule: "deep-import",
    line: 3,
  },
  {
    title: "relative path climbing into another package",
    file: "packages/fs-tools/src/nested/bad.ts",
    source: `${header}import { x } from "../../../core/src/x.js";\n`,
    rule: "relative-escape",
    line: 3,
  },
  {
    title: "relative path climbing out of a tool",
    file: "tools/demo/test/bad.test.ts",
    source: `${header}vi.mock("../../../packages/sandbox/src/spawn.js");\n`,
    rule: "relative-escape",
    line: 3,
  },
  {
    title: "shipped source importing a dev-only tool",
    file: "packages/fs-tools/src/bad.ts",
    source: `${header}import { tree } from "@agent-bridle-tools/test-kit";\n`,
    rule: "dev-tool-import",
    line: 3,
  },
  {
    title: "import of a package missing from the layer table",
    file: "packages/facade/src/bad.ts",
    source: `${header}import { x } from "@agent-bridle/nonexistent";\n`,
    rule: "unknown-package",
    line: 3,
  },
];

describe("checkBoundaries on a planted workspace", () => {
  it("finds nothing in the clean fixture", async () => {
    expect(await check({})).toEqual([]);
  });

  it.each(cases)("$title → $rule", async ({ file, source, rule, line }) => {
    const violations = await check({ [file]: source });
    expect(violations.map(({ file, line, rule }) => ({ file, line, rule }))).toEqual([
      { file, line, rule },
    ]);
    expect(violations[0]?.message).toMatch(/\. [A-Z].+\.$/);
  });

  it("holds core's tests to layering but not to the purity rules (fixtures need node APIs)", async () => {
    const violations = await check({
      "packages/core/test/fixture.test.ts": [
        'import { execFileSync } from "node:child_process";',
        "const ci = process.env.CI;",
        'import { spawnConfined } from "@agent-bridle/sandbox";',
      ].join("\n"),
    });
    expect(violations.map(({ line, rule }) => ({ line, rule }))).toEqual([
      { line: 3, rule: "layer-order" },
    ]);
  });

  it("reports a layering violation and a deep import of the same specifier", async () => {
    const violations = await check({
      "packages/core/src/bad.ts": 'import { x } from "@agent-bridle/sandbox/src/x.js";\n',
    });
    expect(violations.map((violation) => violation.rule).sort()).toEqual([
      "deep-import",
      "layer-order",
    ]);
  });

  it("allows subpaths the exports map lists, exactly or by pattern", async () => {
    const exports = { ".": "./src/index.ts", "./testing": "./src/testing.ts", "./data/*": null };
    const violations = await check({
      "packages/core/package.json": manifest("@agent-bridle/core", [], { exports }),
      "packages/sandbox/package.json": manifest("@agent-bridle/sandbox", [], {
        exports: { ".": "./src/index.ts", "./backends/*": "./src/backends/*.ts" },
      }),
      "packages/fs-tools/test/ok.test.ts": [
        'import { corpus } from "@agent-bridle/core/testing";',
        'import { linux } from "@agent-bridle/sandbox/backends/linux";',
        'import { blob } from "@agent-bridle/core/data/blob";',
      ].join("\n"),
    });
    expect(violations.map(({ file, line, rule }) => ({ file, line, rule }))).toEqual([
      { file: "packages/fs-tools/test/ok.test.ts", line: 3, rule: "deep-import" },
    ]);
  });
});

describe("checkBoundaries on package.json files", () => {
  it("flags a workspace dependency that is not strictly below, at its line", async () => {
    const text = manifest("@agent-bridle/fs-tools", [
      "@agent-bridle/core",
      "@agent-bridle/coreutils",
    ]);
    const violations = await check({ "packages/fs-tools/package.json": text });
    const line = text.split("\n").findIndex((row) => row.includes('"@agent-bridle/coreutils"'));
    expect(violations).toMatchObject([
      { file: "packages/fs-tools/package.json", line: line + 1, rule: "manifest-layer" },
    ]);
  });

  it("flags engine → engine in devDependencies", async () => {
    const text = manifest("@agent-bridle/shell-brush", [], {
      devDependencies: { "@agent-bridle/shell-host": "workspace:*" },
    });
    const violations = await check({ "packages/shell-brush/package.json": text });
    const line = text.split("\n").findIndex((row) => row.includes('"@agent-bridle/shell-host"'));
    expect(violations).toMatchObject([{ rule: "manifest-layer", line: line + 1 }]);
    expect(violations[0]?.message).toContain("shell engines never depend on each other");
  });

  it("flags a dev-only tool in dependencies but not in devDependencies", async () => {
    const violations = await check({
      "packages/core/package.json": manifest("@agent-bridle/core", [
        "@agent-bridle-tools/test-kit",
      ]),
      "packages/sandbox/package.json": manifest("@agent-bridle/sandbox", [], {
        devDependencies: { "@agent-bridle-tools/test-kit": "workspace:*" },
      }),
    });
    expect(violations).toMatchObject([
      { file: "packages/core/package.json", rule: "dev-tool-dependency" },
    ]);
  });

  it("flags a package folder missing from the layer table and a renamed package", async () => {
    const violations = await check({
      "packages/extra/package.json": manifest("@agent-bridle/extra", []),
      "packages/sandbox/package.json": manifest("@agent-bridle/sand-box", []),
    });
    expect(violations.map(({ file, line, rule }) => ({ file, line, rule }))).toEqual([
      { file: "packages/extra/package.json", line: 1, rule: "unknown-package" },
      { file: "packages/sandbox/package.json", line: 2, rule: "package-name" },
    ]);
  });
});

describe("checkBoundaries on this repository", () => {
  it("finds no violations", async () => {
    const root = fileURLToPath(new URL("../../../", import.meta.url));
    expect(await checkBoundaries(root)).toEqual([]);
  });
});
