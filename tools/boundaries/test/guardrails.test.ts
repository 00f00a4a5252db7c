import { readFile, rm } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { scanGuardrails, type Violation } from "../src/index.js";
import {
  createGuardrailWorkspace,
  EXCEPTIONS,
  functionOf,
  INTERPRETER,
} from "./helpers/guardrail-workspace.js";
import { type Tree, writeTree } from "./helpers/temp-workspace.js";

const removals: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(removals.splice(0).map((remove) => remove()));
});

/** A clean workspace with `overrides`, its surfaces pinned from the clean tree first. */
async function workspace(overrides: Tree = {}, exceptions?: object) {
  const created = await createGuardrailWorkspace();
  removals.push(created.remove);
  await scanGuardrails(created.root, { updateSurface: true });
  const list =
    exceptions === undefined ? {} : { [EXCEPTIONS]: JSON.stringify(exceptions, null, 2) };
  await writeTree(created.root, { ...overrides, ...list });
  return created.root;
}

function rules(violations: readonly Violation[]) {
  return violations.map(({ file, line, rule }) => ({ file, line, rule }));
}

describe("the guardrails on a clean workspace", () => {
  it("pass, counting what they measured", async () => {
    const report = await scanGuardrails(await workspace());
    expect(report.violations).toEqual([]);
    expect(report).toMatchObject({ files: 5, filesOver: 0, functionsOver: 0, mutableFields: 0 });
    expect(report.functions).toBe(5); // helper, constructor, get own, bump, demo
    expect(report.surfacesPinned).toBe(2);
  });

  it("pin a package's surface as each entry's names and kinds", async () => {
    const root = await workspace();
    expect(await readFile(path.join(root, "packages/core/public-surface.txt"), "utf8")).toBe(
      [
        "# The public surface of @agent-bridle/core: each export-map entry and the names it exports.",
        "# Checked by the test command (tools/boundaries, ADR 0026). A change to it is an API",
        "# decision: make it, run `pnpm surface:update`, and commit this file with a changeset.",
        "",
        '"." ./src/index.ts',
        "  type-only class Hidden",
        "  const LIMIT",
        "  interface Shape",
        "  function helper",
        "",
      ].join("\n"),
    );
  });
});

describe("file and function length", () => {
  it("fail a file over 500 lines and a function over 80, not one of exactly 80", async () => {
    const long = `${Array.from({ length: 501 }, (_, index) => `// ${index}`).join("\n")}\n`;
    const root = await workspace({
      "packages/core/src/long.ts": long,
      "tools/demo/src/steps.ts": [
        "export const arrow = (): void => {",
        ...Array.from({ length: 79 }, (_, index) => `  void ${index};`),
        "};",
        "export class Steps {",
        "  method(): void {",
        ...Array.from({ length: 79 }, (_, index) => `    void ${index};`),
        "  }",
        "}",
        functionOf("fits", 80),
      ].join("\n"),
    });
    const report = await scanGuardrails(root);
    expect(rules(report.violations)).toEqual([
      { file: "packages/core/src/long.ts", line: 1, rule: "file-length" },
      { file: "tools/demo/src/steps.ts", line: 1, rule: "function-length" },
      { file: "tools/demo/src/steps.ts", line: 83, rule: "function-length" },
    ]);
    expect(report.violations[1]?.message).toContain("tools/demo/src/steps.ts:arrow has 81 lines");
    expect(report.violations[2]?.message).toContain("steps.ts:Steps.method has 81 lines");
    expect(report).toMatchObject({ filesOver: 1, functionsOver: 2 });
  });

  it("let a listed exception stay at its ceiling but not grow past it", async () => {
    const tree = {
      "packages/core/src/big.ts": `${functionOf("big", 90)}${functionOf("grown", 91)}`,
    };
    const root = await workspace(tree, {
      "function-length": {
        "packages/core/src/big.ts:big": { lines: 90, reason: "kept for the test" },
        "packages/core/src/big.ts:grown": { lines: 90, reason: "kept for the test" },
      },
    });
    const report = await scanGuardrails(root);
    expect(rules(report.violations)).toEqual([
      { file: "packages/core/src/big.ts", line: 91, rule: "function-length" },
    ]);
    expect(report.violations[0]?.message).toContain("over its listed ceiling of 90");
    expect(report.listed.functions).toBe(2);
  });

  it("fail an entry that is no longer needed, so the list only shrinks", async () => {
    const tree = {
      "packages/core/src/big.ts": `${functionOf("shrunk", 85)}${functionOf("fixed", 40)}`,
    };
    const exceptions = {
      "file-length": { "packages/core/src/helper.ts": { lines: 600, reason: "was long" } },
      "function-length": {
        "packages/core/src/big.ts:shrunk": { lines: 90, reason: "was longer" },
        "packages/core/src/big.ts:fixed": { lines: 90, reason: "was split" },
        "packages/core/src/gone.ts:removed": { lines: 90, reason: "was deleted" },
      },
    };
    const root = await workspace(tree, exceptions);
    const report = await scanGuardrails(root);
    expect(report.violations.map((violation) => [violation.rule, violation.line])).toEqual([
      ["stale-exception", 3],
      ["stale-exception", 9],
      ["stale-exception", 13],
      ["stale-exception", 17],
    ]);
    const messages = report.violations.map((violation) => violation.message);
    expect(messages[0]).toContain("helper.ts (ceiling 600) is within the 500-line limit");
    expect(messages[1]).toContain("has shrunk to 85 lines: lower its ceiling to 85");
    expect(messages[2]).toContain("big.ts:fixed (ceiling 90) is within the 80-line limit");
    expect(messages[3]).toContain("gone.ts:removed (ceiling 90) is gone");
  });

  it("shrink the list on request: stale entries go, ceilings drop, nothing is added", async () => {
    const tree = {
      "packages/core/src/big.ts": `${functionOf("shrunk", 85)}${functionOf("fixed", 40)}`,
      "packages/core/src/new.ts": functionOf("unlisted", 81),
      [INTERPRETER]: "export class Interpreter {\n  readonly depth = 0;\n}\n",
    };
    const root = await workspace(tree, {
      "file-length": {},
      "function-length": {
        "packages/core/src/big.ts:fixed": { lines: 90, reason: "was split" },
        "packages/core/src/big.ts:shrunk": { lines: 90, reason: "was longer" },
      },
      "mutable-field": { [`${INTERPRETER}:Interpreter.depth`]: { reason: "was writable" } },
    });
    const report = await scanGuardrails(root, { shrinkExceptions: true });
    expect(report.exceptionsShrunk).toBe(3);
    expect(rules(report.violations)).toEqual([
      { file: "packages/core/src/new.ts", line: 1, rule: "function-length" },
    ]);
    expect(JSON.parse(await readFile(path.join(root, EXCEPTIONS), "utf8"))).toEqual({
      "file-length": {},
      "function-length": {
        "packages/core/src/big.ts:shrunk": { lines: 85, reason: "was longer" },
      },
      "mutable-field": {},
    });
  });

  it("refuse an allow-list entry without a reason", async () => {
    const root = await workspace(
      {},
      { "file-length": { "packages/core/src/helper.ts": { lines: 600, reason: " " } } },
    );
    await expect(scanGuardrails(root)).rejects.toThrow(/has no reason/);
  });
});

describe("no public mutable field in the interpreter", () => {
  const mutable = [
    "export class Interpreter {",
    "  depth = 0;",
    "  public static count = 1;",
    "  readonly fixed = 2;",
    "  constructor(public level: number, readonly name: string) {}",
    "  set mode(value: number) { void value; }",
    "}",
    "",
  ].join("\n");

  it("fail a writable field, static field, parameter property or setter", async () => {
    const report = await scanGuardrails(await workspace({ [INTERPRETER]: mutable }));
    expect(rules(report.violations)).toEqual(
      [2, 3, 5, 6].map((line) => ({
        file: INTERPRETER,
        line,
        rule: "mutable-field",
      })),
    );
    expect(report.violations.map((violation) => violation.message.split(" ")[0])).toEqual([
      "Interpreter.depth",
      "Interpreter.count",
      "Interpreter.level",
      "Interpreter.mode",
    ]);
  });

  it("pass a listed field and fail an entry whose field is no longer writable", async () => {
    const entry = { reason: "kept for the test" };
    const root = await workspace(
      { [INTERPRETER]: mutable.replace("depth = 0", "readonly depth = 0") },
      {
        "mutable-field": {
          [`${INTERPRETER}:Interpreter.depth`]: entry,
          [`${INTERPRETER}:Interpreter.count`]: entry,
          [`${INTERPRETER}:Interpreter.level`]: entry,
          [`${INTERPRETER}:Interpreter.mode`]: entry,
        },
      },
    );
    const report = await scanGuardrails(root);
    expect(rules(report.violations)).toEqual([
      { file: EXCEPTIONS, line: 3, rule: "stale-exception" },
    ]);
    expect(report).toMatchObject({ mutableFields: 3, listed: { fields: 4 } });
  });

  it("fail when the Interpreter class is not found, so the rule cannot check nothing", async () => {
    const root = await workspace({ [INTERPRETER]: "export class Shell {}\n" });
    const report = await scanGuardrails(root);
    expect(rules(report.violations)).toEqual([
      { file: "packages/shell-brush/public-surface.txt", line: 1, rule: "public-surface" },
      { file: "packages/shell-brush/src/interpret/", line: 1, rule: "mutable-field" },
    ]);
  });
});

describe("the pinned public surface", () => {
  it("fails on a missing snapshot and on an added or removed name", async () => {
    const root = await workspace({
      "packages/core/src/index.ts":
        'export { helper } from "./helper.js";\nexport function extra() {}\n',
    });
    await rm(path.join(root, "packages/shell-brush/public-surface.txt"));
    const report = await scanGuardrails(root);
    expect(rules(report.violations)).toEqual([
      { file: "packages/core/public-surface.txt", line: 1, rule: "public-surface" },
      { file: "packages/shell-brush/public-surface.txt", line: 1, rule: "public-surface" },
    ]);
    const [changed, missing] = report.violations.map((violation) => violation.message);
    expect(changed).toContain("+ function extra; - type-only class Hidden; - const LIMIT");
    expect(changed).toContain("- interface Shape");
    expect(missing).toContain("packages/shell-brush has no pinned surface");
  });

  it("is rewritten by the explicit update, after which it passes", async () => {
    const root = await workspace({ "packages/core/src/index.ts": "export const only = 1;\n" });
    const update = await scanGuardrails(root, { updateSurface: true });
    expect(update).toMatchObject({ violations: [], surfacesWritten: 1 });
    const pinned = await readFile(path.join(root, "packages/core/public-surface.txt"), "utf8");
    expect(pinned.endsWith('"." ./src/index.ts\n  const only\n')).toBe(true);
    expect((await scanGuardrails(root)).violations).toEqual([]);
  });
});
