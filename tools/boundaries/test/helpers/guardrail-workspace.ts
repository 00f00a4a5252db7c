import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { manifest, type Tree, writeTree } from "./temp-workspace.js";

export const EXCEPTIONS = "tools/boundaries/guardrail-exceptions.json";
export const INTERPRETER = "packages/shell-brush/src/interpret/interpreter.ts";

/** `lines` lines of `function name`: its header, `lines - 2` statements and `}`. */
export function functionOf(name: string, lines: number): string {
  const body = Array.from({ length: lines - 2 }, (_, index) => `  void ${index};`);
  return [`export function ${name}(): void {`, ...body, "}", ""].join("\n");
}

/**
 * A workspace that passes every guardrail once its surfaces are written: two packages
 * (core, and shell-brush with an Interpreter whose fields are all safe) and a tool.
 */
export function cleanGuardrailTree(): Tree {
  return {
    "packages/core/package.json": manifest("@agent-bridle/core", []),
    "packages/core/src/index.ts": [
      'export { helper, type Shape } from "./helper.js";',
      'export type { Hidden } from "./helper.js";',
      "export const LIMIT = 3;",
      "",
    ].join("\n"),
    "packages/core/src/helper.ts": [
      "export interface Shape { readonly size: number }",
      "export class Hidden {}",
      functionOf("helper", 80),
    ].join("\n"),
    "packages/shell-brush/package.json": manifest("@agent-bridle/shell-brush", []),
    "packages/shell-brush/src/index.ts":
      'export { Interpreter } from "./interpret/interpreter.js";\n',
    [INTERPRETER]: [
      "export class Interpreter {",
      "  readonly fixed = 1;",
      "  private hidden = 2;",
      "  protected inherited = 3;",
      "  #own = 4;",
      "  static readonly shared = 5;",
      "  constructor(readonly name: string, private secret: string) {}",
      "  get own(): number { return this.#own + this.hidden + this.secret.length; }",
      "  bump(): void { this.#own += 1; }",
      "}",
      "",
    ].join("\n"),
    "tools/demo/package.json": manifest("@agent-bridle-tools/demo", []),
    "tools/demo/src/demo.ts": "export const demo = (): number => 1;\n",
  };
}

/** A temp workspace holding the clean guardrail tree plus `overrides`. */
export async function createGuardrailWorkspace(overrides: Tree = {}) {
  const root = await mkdtemp(path.join(os.tmpdir(), "bridle-guardrails-"));
  await writeTree(root, { ...cleanGuardrailTree(), ...overrides });
  return { root, remove: () => rm(root, { recursive: true, force: true }) };
}
