import path from "node:path";
import { listSourceFiles } from "../source-files.js";
import { compareViolations, type Violation } from "../violation.js";
import { loadWorkspace, type Workspace, type WorkspacePackage } from "../workspace.js";
import { loadExceptions } from "./exceptions.js";
import { countLines, measureFunctions } from "./measure-functions.js";
import {
  checkMutableFields,
  findMutableFields,
  INTERPRETER_FOLDER,
  type InterpreterFile,
} from "./mutable-fields.js";
import { type Measurements, shrinkExceptions } from "./shrink-exceptions.js";
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
  /** Allow-list entries removed or lowered (with `shrinkExceptions` only). */
  readonly exceptionsShrunk: number;
}

export interface GuardrailOptions {
  /** Write the public-surface snapshots that differ instead of failing on them. */
  readonly updateSurface?: boolean;
  /** Remove stale allow-list entries and lower ceilings first ({@link shrinkExceptions}). */
  readonly shrinkExceptions?: boolean;
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
  const cache = new SourceCache();
  const { measured, interpreter } = await measureWorkspace(workspace, cache);
  const exceptionsShrunk =
    options.shrinkExceptions === true
      ? await shrinkExceptions(workspace.root, measurementsOf(measured, interpreter))
      : 0;
  const exceptions = await loadExceptions(workspace.root);
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
    exceptionsShrunk,
  };
}

async function measureWorkspace(workspace: Workspace, cache: SourceCache) {
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
  return { measured, interpreter };
}

function measurementsOf(
  measured: readonly MeasuredFile[],
  interpreter: readonly InterpreterFile[],
): Measurements {
  return {
    files: new Map(measured.map((entry) => [entry.file, entry.lines])),
    functions: new Map(
      measured.flatMap((entry) =>
        entry.functions.map((fn) => [`${entry.file}:${fn.name}`, fn.lines]),
      ),
    ),
    fields: new Set(
      interpreter.flatMap((entry) => entry.fields.map((field) => `${entry.file}:${field.name}`)),
    ),
  };
}

async function typescriptSources(owner: WorkspacePackage): Promise<string[]> {
  const files = await listSourceFiles(path.join(owner.absolutePath, "src"));
  return files.filter((file) => TYPESCRIPT_SOURCE.test(file));
}
