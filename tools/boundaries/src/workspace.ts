import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { type LayerEntry, layerByDirectory } from "./layers.js";

/** The fields of package.json the check reads. */
export interface Manifest {
  readonly name?: unknown;
  readonly exports?: unknown;
  readonly [section: string]: unknown;
}

export interface WorkspacePackage {
  /** `"packages"` for the layered packages, `"tools"` for dev-only tools. */
  readonly area: "packages" | "tools";
  /** Folder name inside the area. */
  readonly directory: string;
  /** Absolute path of the package folder. */
  readonly absolutePath: string;
  /** Path relative to the workspace root, with forward slashes. */
  readonly relativePath: string;
  readonly manifest: Manifest;
  /** package.json as text, to find the line of a key. */
  readonly manifestText: string;
  /** The layer table row; undefined for tools and for packages missing from the table. */
  readonly layer: LayerEntry | undefined;
}

export interface Workspace {
  readonly root: string;
  readonly packages: readonly WorkspacePackage[];
  readonly tools: readonly WorkspacePackage[];
}

export async function loadWorkspace(root: string): Promise<Workspace> {
  const absoluteRoot = path.resolve(root);
  return {
    root: absoluteRoot,
    packages: await loadArea(absoluteRoot, "packages"),
    tools: await loadArea(absoluteRoot, "tools"),
  };
}

async function loadArea(root: string, area: "packages" | "tools"): Promise<WorkspacePackage[]> {
  const entries = await readdir(path.join(root, area), { withFileTypes: true }).catch(() => []);
  const directories = entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name);
  const loaded: WorkspacePackage[] = [];
  for (const directory of directories.sort()) {
    const absolutePath = path.join(root, area, directory);
    const manifestText = await readFile(path.join(absolutePath, "package.json"), "utf8").catch(
      () => undefined,
    );
    if (manifestText === undefined) continue; // not a workspace package (e.g. tools/scripts)
    loaded.push({
      area,
      directory,
      absolutePath,
      relativePath: `${area}/${directory}`,
      manifest: JSON.parse(manifestText) as Manifest,
      manifestText,
      layer: area === "packages" ? layerByDirectory(directory) : undefined,
    });
  }
  return loaded;
}

/** The package (in either area) whose npm name is `packageName`. */
export function findByName(
  workspace: Workspace,
  packageName: string,
): WorkspacePackage | undefined {
  return [...workspace.packages, ...workspace.tools].find(
    (candidate) => candidate.manifest.name === packageName,
  );
}

/** The package whose folder contains `absoluteFile`. */
export function findContaining(
  workspace: Workspace,
  absoluteFile: string,
): WorkspacePackage | undefined {
  return [...workspace.packages, ...workspace.tools].find((candidate) =>
    isInside(candidate.absolutePath, absoluteFile),
  );
}

export function isInside(directory: string, file: string): boolean {
  const relative = path.relative(directory, file);
  return relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative));
}
