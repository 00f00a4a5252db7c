import path from "node:path";
import { checkFile } from "./check-file.js";
import { checkManifest } from "./rules/manifest-rules.js";
import { LANGUAGE_EXCEPTIONS } from "./rules/one-bash-language.js";
import { checkPackageIdentity } from "./rules/package-rules.js";
import { listSourceFiles, SCANNED_FOLDERS } from "./source-files.js";
import { compareViolations, type Violation } from "./violation.js";
import { loadWorkspace } from "./workspace.js";

export interface BoundaryReport {
  readonly violations: readonly Violation[];
  /** Layered packages checked (folders of `packages/` with a package.json). */
  readonly packages: number;
  /** Dev-only tools checked for deep imports (folders of `tools/` with a package.json). */
  readonly tools: number;
  readonly files: number;
  readonly references: number;
  /** Files of the one-bash-language rule's exception list that still exist, with why. */
  readonly languageExceptions: readonly { readonly file: string; readonly reason: string }[];
}

/**
 * Checks the layer boundaries of the workspace at `workspaceRoot`: imports and
 * manifests of `packages/*` against the layer table, core's purity, and deep or
 * escaping imports in `packages/*` and `tools/*` (their `src` and `test` folders).
 */
export async function scanBoundaries(workspaceRoot: string): Promise<BoundaryReport> {
  const workspace = await loadWorkspace(workspaceRoot);
  const violations: Violation[] = [];
  let files = 0;
  let references = 0;
  const languageExceptions: { file: string; reason: string }[] = [];
  for (const owner of workspace.packages) {
    violations.push(...checkPackageIdentity(owner), ...checkManifest(owner));
  }
  for (const owner of [...workspace.packages, ...workspace.tools]) {
    for (const folder of SCANNED_FOLDERS) {
      for (const file of await listSourceFiles(path.join(owner.absolutePath, folder))) {
        const relativeFile = toPosix(path.relative(workspace.root, file));
        const reason = LANGUAGE_EXCEPTIONS.get(relativeFile);
        if (reason !== undefined) languageExceptions.push({ file: relativeFile, reason });
        const result = await checkFile({ workspace, owner, file, relativeFile, folder });
        violations.push(...result.violations);
        files += 1;
        references += result.references;
      }
    }
  }
  return {
    violations: violations.sort(compareViolations),
    packages: workspace.packages.length,
    tools: workspace.tools.length,
    files,
    references,
    languageExceptions,
  };
}

/** The violations of {@link scanBoundaries}, sorted by file and line; empty when clean. */
export async function checkBoundaries(workspaceRoot: string): Promise<Violation[]> {
  return [...(await scanBoundaries(workspaceRoot)).violations];
}

function toPosix(relative: string): string {
  return relative.split(path.sep).join("/");
}
