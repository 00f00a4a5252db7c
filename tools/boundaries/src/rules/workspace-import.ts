import { isExportedSubpath } from "../exports-map.js";
import { layerByPackageName } from "../layers.js";
import type { ModuleReference } from "../module-references.js";
import { isDevToolSpecifier, parseWorkspaceSpecifier } from "../specifier.js";
import type { Violation } from "../violation.js";
import { findByName } from "../workspace.js";
import type { FileContext } from "./file-context.js";
import { layerProblem } from "./layer-message.js";

/** Imports of workspace packages by name: known package, exported subpath, lower layer. */
export function checkWorkspaceImport(
  context: FileContext,
  reference: ModuleReference,
): Violation[] {
  const at = { file: context.relativeFile, line: reference.line };
  if (isDevToolSpecifier(reference.specifier)) {
    if (context.owner.area !== "packages" || context.folder !== "src") return [];
    return [
      {
        ...at,
        rule: "dev-tool-import",
        message:
          `"${reference.specifier}" is a private dev-only tool and is never published, so ` +
          "shipped source must not import it. Use it from test/ only, or move the code into " +
          "the package (or a lower layer).",
      },
    ];
  }
  const parsed = parseWorkspaceSpecifier(reference.specifier);
  if (parsed === undefined) return [];
  const target = layerByPackageName(parsed.packageName);
  if (target === undefined) {
    return [
      {
        ...at,
        rule: "unknown-package",
        message:
          `"${parsed.packageName}" is not a package of the layer table. Import one of the ` +
          "workspace packages, or add the new package to tools/boundaries/src/layers.ts.",
      },
    ];
  }
  const violations: Violation[] = [];
  const exportsField = findByName(context.workspace, parsed.packageName)?.manifest.exports;
  if (parsed.subpath !== "." && !isExportedSubpath(exportsField, parsed.subpath)) {
    const intoSource = /(^|\/)(src|dist|node_modules)(\/|$)/.test(parsed.subpath.slice(2));
    violations.push({
      ...at,
      rule: "deep-import",
      message:
        `"${reference.specifier}" ${intoSource ? "reaches into the internals of" : "is not in the exports map of"} ` +
        `${parsed.packageName}. Import from "${parsed.packageName}" (or a subpath its ` +
        "package.json exports); if what you need is not exported, add it to that package's " +
        "public entry rather than importing around it.",
    });
  }
  const owner = context.owner.layer;
  const problem = owner === undefined ? undefined : layerProblem(owner, target, "imports");
  if (problem !== undefined) violations.push({ ...at, ...problem });
  return violations;
}
