import { layerByPackageName } from "../layers.js";
import { manifestKeyLine } from "../manifest-line.js";
import { isDevToolSpecifier, parseWorkspaceSpecifier } from "../specifier.js";
import type { Violation } from "../violation.js";
import type { WorkspacePackage } from "../workspace.js";
import { layerProblem } from "./layer-message.js";

const SECTIONS = [
  "dependencies",
  "devDependencies",
  "peerDependencies",
  "optionalDependencies",
] as const;
/** Sections that reach a consumer's install; dev-only tools must stay out of them. */
const SHIPPED = new Set<string>(["dependencies", "peerDependencies", "optionalDependencies"]);

function dependencyNames(manifest: WorkspacePackage["manifest"], section: string): string[] {
  const value = manifest[section];
  return value !== null && typeof value === "object" ? Object.keys(value) : [];
}

/** package.json dependencies on workspace packages respect the layering (style §9.2, step 1). */
export function checkManifest(owner: WorkspacePackage): Violation[] {
  const violations: Violation[] = [];
  const file = `${owner.relativePath}/package.json`;
  for (const section of SECTIONS) {
    for (const dependency of dependencyNames(owner.manifest, section)) {
      const line = manifestKeyLine(owner.manifestText, dependency, section);
      const at = { file, line };
      if (isDevToolSpecifier(dependency)) {
        if (SHIPPED.has(section)) {
          violations.push({
            ...at,
            rule: "dev-tool-dependency",
            message:
              `${section} lists the dev-only tool ${dependency}, which is never published. ` +
              "Move it to devDependencies.",
          });
        }
        continue;
      }
      if (parseWorkspaceSpecifier(dependency) === undefined) continue;
      const target = layerByPackageName(dependency);
      if (target === undefined) {
        violations.push({
          ...at,
          rule: "unknown-package",
          message:
            `${section} lists ${dependency}, which is not in the layer table. Depend on a ` +
            "workspace package, or add the new package to tools/boundaries/src/layers.ts.",
        });
        continue;
      }
      const problem = owner.layer && layerProblem(owner.layer, target, `lists in ${section}`);
      if (problem !== undefined) {
        violations.push({
          ...at,
          rule: "manifest-layer",
          message: `${problem.message} Remove the dependency from package.json.`,
        });
      }
    }
  }
  return violations;
}
