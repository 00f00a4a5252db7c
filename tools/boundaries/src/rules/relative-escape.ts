import path from "node:path";
import type { ModuleReference } from "../module-references.js";
import { isPathSpecifier } from "../specifier.js";
import type { Violation } from "../violation.js";
import { findContaining, isInside } from "../workspace.js";
import type { FileContext } from "./file-context.js";

/** A path specifier must stay inside the package that holds the file. */
export function checkRelativeEscape(
  context: FileContext,
  reference: ModuleReference,
): Violation | undefined {
  if (!isPathSpecifier(reference.specifier)) return undefined;
  const target = path.resolve(path.dirname(context.file), reference.specifier);
  if (isInside(context.owner.absolutePath, target)) return undefined;
  const landsIn = findContaining(context.workspace, target);
  const name = landsIn?.manifest.name;
  const advice =
    typeof name === "string"
      ? `Import "${name}" through its exports map instead (and declare it in package.json).`
      : "Keep imports inside the package; shared code belongs in a workspace package that is " +
        "imported by name.";
  return {
    file: context.relativeFile,
    line: reference.line,
    rule: "relative-escape",
    message: `"${reference.specifier}" climbs out of ${context.owner.relativePath}. ${advice}`,
  };
}
