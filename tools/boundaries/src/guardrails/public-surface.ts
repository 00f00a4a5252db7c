import path from "node:path";
import ts from "typescript";
import type { WorkspacePackage } from "../workspace.js";
import type { SourceCache } from "./source-cache.js";

/** The export condition that maps an entry to its TypeScript source. */
const SOURCE_CONDITION = "@agent-bridle/source";
const TYPESCRIPT_FILE = /\.[cm]?tsx?$/;

/** The snapshot of a package's surface, relative to its folder. */
export const SURFACE_FILE = "public-surface.txt";

/** One key of a package's `exports` map and the file it names. */
interface EntryPoint {
  readonly key: string;
  /** The target as written (the source condition's, else `default`, else the string). */
  readonly target: string;
  /** Absolute path of the target. */
  readonly file: string;
}

/**
 * The surface of each package as the text of its snapshot: every export-map key with its
 * target, and for a TypeScript target every name it exports with its kind (`class`,
 * `function`, `const`, `interface`, `type`, …; `type-only` for a value exported with
 * `export type`), sorted by name. Reads the names with the compiler's checker over the
 * sources, so re-exports and `export *` are followed; no types are checked.
 */
export function readSurfaces(
  packages: readonly WorkspacePackage[],
  cache: SourceCache,
): Map<WorkspacePackage, string> {
  const entries = new Map(packages.map((owner) => [owner, entryPoints(owner)]));
  const roots = [...entries.values()].flat().map((entry) => entry.file);
  const program = createProgram(
    roots.filter((file) => TYPESCRIPT_FILE.test(file)),
    cache,
  );
  const checker = program.getTypeChecker();
  const surfaces = new Map<WorkspacePackage, string>();
  for (const [owner, points] of entries) {
    const sections = points.map((entry) => {
      const heading = `${JSON.stringify(entry.key)} ${entry.target}`;
      if (!TYPESCRIPT_FILE.test(entry.file)) return `${heading}\n`;
      const names = exportedNames(program, checker, entry.file);
      return `${heading}\n${names.map((line) => `  ${line}\n`).join("")}`;
    });
    surfaces.set(owner, `${header(owner)}\n${sections.join("\n")}`);
  }
  return surfaces;
}

function header(owner: WorkspacePackage): string {
  const name = String(owner.manifest.name ?? owner.relativePath);
  return (
    `# The public surface of ${name}: each export-map entry and the names it exports.\n` +
    "# Checked by the test command (tools/boundaries, ADR 0026). A change to it is an API\n" +
    "# decision: make it, run `pnpm surface:update`, and commit this file with a changeset.\n"
  );
}

function entryPoints(owner: WorkspacePackage): EntryPoint[] {
  const exportsMap = owner.manifest.exports;
  const map =
    typeof exportsMap === "string" || exportsMap === undefined
      ? { ".": exportsMap ?? "./src/index.ts" }
      : (exportsMap as Record<string, unknown>);
  const points: EntryPoint[] = [];
  for (const [key, value] of Object.entries(map)) {
    const target = targetOf(value);
    if (target === undefined) continue;
    points.push({ key, target, file: path.resolve(owner.absolutePath, target) });
  }
  return points.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

function targetOf(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value !== "object" || value === null) return undefined;
  const conditions = value as Record<string, unknown>;
  for (const condition of [SOURCE_CONDITION, "default", "import"]) {
    const target = targetOf(conditions[condition]);
    if (target !== undefined) return target;
  }
  return undefined;
}

function createProgram(roots: readonly string[], cache: SourceCache): ts.Program {
  const options: ts.CompilerOptions = {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    customConditions: [SOURCE_CONDITION],
    resolveJsonModule: true,
    noEmit: true,
    noLib: true,
    types: [],
    skipLibCheck: true,
  };
  const host = ts.createCompilerHost(options, true);
  host.getSourceFile = (file) => cache.get(path.resolve(file), () => ts.sys.readFile(file));
  // Only the workspace's own sources are read: a name re-exported from a third-party
  // package is listed as `unresolved`, which is enough to pin it, and saves parsing the
  // declaration files of every dependency.
  host.resolveModuleNameLiterals = (literals, containingFile, redirect, compilerOptions) =>
    literals.map((literal) => {
      const found = ts.resolveModuleName(
        literal.text,
        containingFile,
        compilerOptions,
        host,
        undefined,
        redirect,
        ts.getModeForUsageLocation(literal.getSourceFile(), literal, compilerOptions),
      );
      const file = found.resolvedModule?.resolvedFileName;
      const outside = file === undefined || file.includes("/node_modules/");
      return outside ? { resolvedModule: undefined } : found;
    });
  return ts.createProgram({ rootNames: roots, options, host });
}

function exportedNames(program: ts.Program, checker: ts.TypeChecker, file: string): string[] {
  const source = program.getSourceFile(file);
  const module = source === undefined ? undefined : checker.getSymbolAtLocation(source);
  if (module === undefined) return ["(no module: the entry file is missing or empty)"];
  return checker
    .getExportsOfModule(module)
    .map((symbol) => `${kindOf(checker, symbol)} ${symbol.name}`)
    .sort((a, b) => {
      const left = a.slice(a.lastIndexOf(" ") + 1);
      const right = b.slice(b.lastIndexOf(" ") + 1);
      return left < right ? -1 : left > right ? 1 : 0;
    });
}

const KINDS: readonly [ts.SymbolFlags, string][] = [
  [ts.SymbolFlags.Class, "class"],
  [ts.SymbolFlags.Function, "function"],
  [ts.SymbolFlags.Enum, "enum"],
  [ts.SymbolFlags.Interface, "interface"],
  [ts.SymbolFlags.TypeAlias, "type"],
  [ts.SymbolFlags.Module, "namespace"],
];

function kindOf(checker: ts.TypeChecker, symbol: ts.Symbol): string {
  const typeOnly = (symbol.declarations ?? []).some(
    (declaration) =>
      ts.isTypeOnlyImportOrExportDeclaration(declaration) ||
      (ts.isExportDeclaration(declaration) && declaration.isTypeOnly),
  );
  const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
  const kinds = KINDS.filter(([flag]) => target.flags & flag).map(([, kind]) => kind);
  if (target.flags & ts.SymbolFlags.Variable) kinds.unshift(variableKind(target));
  const kind = kinds.length === 0 ? "unresolved" : kinds.join("+");
  // `export type` of a value (a class, a const) exports only its type: say so.
  return typeOnly && target.flags & ts.SymbolFlags.Value ? `type-only ${kind}` : kind;
}

function variableKind(symbol: ts.Symbol): string {
  const declaration = symbol.valueDeclaration;
  if (declaration === undefined) return "var";
  const flags = ts.getCombinedNodeFlags(declaration);
  return flags & ts.NodeFlags.Const ? "const" : flags & ts.NodeFlags.Let ? "let" : "var";
}
