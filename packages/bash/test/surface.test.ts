// The package's public surface, pinned as literals: adding or removing a name is an API
// decision (and needs a changeset).
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import * as surface from "../src/index.js";

describe("@agent-bridle/bash public surface", () => {
  it("exports exactly these runtime names", () => {
    expect(Object.keys(surface).sort()).toEqual([
      "ANSI_C_ESCAPES",
      "ArithmeticError",
      "BACKSLASH_ESCAPES",
      "MAX_INSPECTION_DEPTH",
      "MAX_INSPECTION_SOURCE_BYTES",
      "SHELL_INSPECTION_SCHEMA_VERSION",
      "ShellInspectionError",
      "byteLength",
      "canonicalShellText",
      "decodeAnsiC",
      "decodeShellBytes",
      "encodeShellText",
      "escapePattern",
      "evaluateArithmetic",
      "expandBraces",
      "expandPathname",
      "forEachNode",
      "fromByteChars",
      "hasGlob",
      "inspectShell",
      "isAsciiText",
      "matchPattern",
      "parseBash",
      "patternSource",
      "plainNumber",
      "shellByte",
      "sliceBytes",
      "toByteChars",
      "unescapePattern",
    ]);
  });

  it("has one export-map entry and no runtime dependencies", () => {
    const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
    expect(manifest.exports).toEqual({
      ".": {
        "@agent-bridle/source": "./src/index.ts",
        types: "./dist/index.d.ts",
        default: "./dist/index.js",
      },
    });
    expect(manifest.dependencies).toBeUndefined();
    expect(manifest.peerDependencies).toBeUndefined();
  });
});
