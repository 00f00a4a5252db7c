// The package's public surface, pinned as literals: adding or removing a name is an API
// decision (and needs a changeset).
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import * as surface from "../src/index.js";

describe("@agent-bridle/fs-tools public surface", () => {
  it("exports exactly these runtime names", () => {
    expect(Object.keys(surface).sort()).toEqual([
      "DEFAULT_LIST_LIMIT",
      "DEFAULT_SEARCH_MATCHES",
      "DEFAULT_TREE_DEPTH",
      "FileConfigSchema",
      "FileInfoArgumentsSchema",
      "MAX_EDITS",
      "MAX_SEARCH_MATCHES",
      "MAX_TREE_DEPTH",
      "ReadFileArgumentsSchema",
      "createDirectoryTreeTool",
      "createEditFileTool",
      "createFileConfig",
      "createFileInfoTool",
      "createFsTools",
      "createListAllowedDirectoriesTool",
      "createListDirectoryTool",
      "createReadFileTool",
      "createSearchFilesTool",
      "createWriteFileTool",
      "defaultBlockedPaths",
    ]);
  });

  it("has one export-map entry, with the source condition first", () => {
    const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
    expect(manifest.exports).toEqual({
      ".": {
        "@agent-bridle/source": "./src/index.ts",
        types: "./dist/index.d.ts",
        default: "./dist/index.js",
      },
    });
    expect(Object.keys(manifest.dependencies).sort()).toEqual([
      "@agent-bridle/core",
      "picomatch",
      "zod",
    ]);
  });
});
