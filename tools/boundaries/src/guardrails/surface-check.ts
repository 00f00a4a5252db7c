import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Violation } from "../violation.js";
import type { WorkspacePackage } from "../workspace.js";
import { readSurfaces, SURFACE_FILE } from "./public-surface.js";
import type { SourceCache } from "./source-cache.js";

export interface SurfaceReport {
  readonly violations: readonly Violation[];
  /** Packages whose surface was compared (or written). */
  readonly pinned: number;
  /** Snapshots written (update mode only). */
  readonly written: number;
}

/**
 * Compares each package's surface with its committed `public-surface.txt`; a missing or
 * different snapshot fails, naming the lines added and removed. With `update`, writes the
 * snapshots that differ instead (the explicit step a surface change takes).
 */
export async function checkSurfaces(
  packages: readonly WorkspacePackage[],
  cache: SourceCache,
  update: boolean,
): Promise<SurfaceReport> {
  const violations: Violation[] = [];
  let written = 0;
  for (const [owner, surface] of readSurfaces(packages, cache)) {
    const file = path.join(owner.absolutePath, SURFACE_FILE);
    const pinned = await readFile(file, "utf8").catch(() => undefined);
    if (pinned === surface) continue;
    if (update) {
      await writeFile(file, surface);
      written += 1;
      continue;
    }
    violations.push({
      file: `${owner.relativePath}/${SURFACE_FILE}`,
      line: 1,
      rule: "public-surface",
      message:
        pinned === undefined
          ? `${owner.relativePath} has no pinned surface: run \`pnpm surface:update\` and commit it`
          : `${owner.relativePath}'s exports differ from its pinned surface (${difference(pinned, surface)}): ` +
            "if the change is meant, run `pnpm surface:update`, commit the file and add a changeset",
    });
  }
  return { violations, pinned: packages.length, written };
}

function difference(pinned: string, current: string): string {
  const before = new Set(pinned.split("\n"));
  const after = new Set(current.split("\n"));
  const added = [...after].filter((line) => !before.has(line)).map((line) => `+ ${line.trim()}`);
  const removed = [...before].filter((line) => !after.has(line)).map((line) => `- ${line.trim()}`);
  return [...added, ...removed].join("; ");
}
