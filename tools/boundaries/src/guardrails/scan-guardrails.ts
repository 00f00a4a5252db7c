import path from "node:path";
import { listSourceFiles } from "../source-files.js";
import { compareViolations, type Violation } from "../violation.js";
import { loadWorkspace, type WorkspacePackage } from "../workspace.js";
import { loadExceptions } from "./exceptions.js";
import { countLines, measureFunctions } from "./measure-functions.js";
import {
  checkMutableFields,
  findMutableFields,
  INTERPRETER_FOLDER,
  type InterpreterFile,
} from "./mutable-fields.js";
import { checkSizes, type MeasuredFile } from "./size-rules.js";
import { SourceCache } from "./source-cache.js";
import { checkSurfaces } from "./surface-check.js";

export interface GuardrailReport {
  readonly violations: readonly Violation[];
  /** Source files measured (`packages/*\/src`, `tools/*\/src`). */
  readonly files: number;
  readonly functions: number;
  /** Files and functions over their limit, listed or not. */
  readonly filesOver: number;
  readonly functionsOver: number;
  /** Entries of the allow-list, by section. */
  readonly listed: { readonly files: number; readonly functions: number; readonly fields: number };
  /** Public mutable fields found in the interpreter's classes, listed or not. */
  readonly mutableFields: number;
  readonly surfacesPinned: number;
  readonly surfacesWritten: number;
}

export interface GuardrailOptions {
  /** Write the public-surface snapshots that differ instead of failing on them. */
  readonly updateSurface?: boolean;
}

const TYPESCRIPT_SOURCE = /(?<!\.d)\.[cm]?ts$/;

/**
 * The code-shape guardrails of ADR 0026 over the workspace at `workspaceRoot`: file and
 * function length with their allow-list, each package's pinned public surface, and no
 * public mutable field on the interpreter's classes.
 */
export async function scanGuardrails(
  workspaceRoot: string,
  options: GuardrailOptions = {},
): Promise<GuardrailReport> {
  const workspace = await loadWorkspace(workspaceRoot);
  const exceptions = await loadExceptions(workspace.root);
  const cache = new SourceCache();
  const measured: MeasuredFile[] = [];
  const interpreter: InterpreterFile[] = [];
  for (const owner of [...workspace.packages, ...workspace.tools]) {
    for (const file of await typescriptSources(owner)) {
      const source = await cache.load(file);
      const relative = path.relative(workspace.root, file).split(path.sep).join("/");
      const functions = measureFunctions(source);
      measured.push({ file: relative, lines: countLines(source.text), functions });
      if (relative.startsWith(INTERPRETER_FOLDER)) {
        interpreter.push({ file: relative, ...findMutableFields(source) });
      }
    }
  }
  const hasShellBrush = workspace.packages.some((owner) => owner.directory === "shell-brush");
  const sizes = checkSizes(measured, exceptions);
  const fields = checkMutableFields(interpreter, exceptions, hasShellBrush);
  const surfaces = await checkSurfaces(workspace.packages, cache, options.updateSurface === true);
  return {
    violations: [...sizes.violations, ...fields.violations, ...surfaces.violations].sort(
      compareViolations,
    ),
    files: measured.length,
    functions: sizes.functions,
    filesOver: sizes.filesOver,
    functionsOver: sizes.functionsOver,
    listed: {
      files: exceptions.fileLength.size,
      functions: exceptions.functionLength.size,
      fields: exceptions.mutableField.size,
    },
    mutableFields: fields.found,
    surfacesPinned: surfaces.pinned,
    surfacesWritten: surfaces.written,
  };
}

async function typescriptSources(owner: WorkspacePackage): Promise<string[]> {
  const files = await listSourceFiles(path.join(owner.absolutePath, "src"));
  return files.filter((file) => TYPESCRIPT_SOURCE.test(file));
}
