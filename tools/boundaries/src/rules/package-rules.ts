import { manifestKeyLine } from "../manifest-line.js";
import type { Violation } from "../violation.js";
import type { WorkspacePackage } from "../workspace.js";

/** Every folder under packages/ has a row in the layer table and the npm name the table expects. */
export function checkPackageIdentity(owner: WorkspacePackage): Violation[] {
  const file = `${owner.relativePath}/package.json`;
  if (owner.layer === undefined) {
    return [
      {
        file,
        line: 1,
        rule: "unknown-package",
        message:
          `${owner.relativePath} has no layer. Add it to the layer table in ` +
          "tools/boundaries/src/layers.ts (and to spec README §2) before it is imported.",
      },
    ];
  }
  if (owner.manifest.name === owner.layer.packageName) return [];
  return [
    {
      file,
      line: manifestKeyLine(owner.manifestText, "name"),
      rule: "package-name",
      message:
        `${owner.relativePath} is named ${JSON.stringify(owner.manifest.name)}; the layer ` +
        `table expects "${owner.layer.packageName}". Rename it in package.json.`,
    },
  ];
}
