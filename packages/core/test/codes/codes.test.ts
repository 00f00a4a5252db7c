import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CODE_DOCS, CODES, isCode } from "../../src/codes/codes.js";
import { renderCodeDocs } from "../../src/codes/render-code-docs.js";

describe("codes", () => {
  it("the full list is pinned (removing or renaming a code is a breaking change)", () => {
    expect(CODES).toEqual([
      "TOOL_NOT_FOUND",
      "BUDGET_EXHAUSTED",
      "GENERATION_INVALID",
      "INVALID_ARGUMENTS",
      "REGISTRY_CLOSED",
      "APPROVAL_REFUSED",
      "CONFIG_INVALID_CAVEATS",
      "CONFIG_INVALID_OPTION",
      "TOOL_FAILED",
      "EXEC_NOT_GRANTED",
      "NET_NOT_GRANTED",
      "NET_HOST_NOT_GRANTED",
      "FS_OUTSIDE_ALLOWED",
      "FS_BLOCKED",
      "FS_SYMLINK_ESCAPE",
      "FS_DANGLING_LINK",
      "FS_INVALID_PATH",
      "FS_LINK_LOOP",
      "FS_PATH_TOO_LONG",
      "FS_NO_BASE_DIR",
      "FS_NOT_FOUND",
      "FS_CANNOT_RESOLVE",
      "FS_CHANGED_DURING_OPEN",
      "FS_ALREADY_EXISTS",
      "FS_TOO_LARGE",
      "FS_NOT_REGULAR",
      "FS_EDIT_NOT_FOUND",
      "FS_EDIT_NOT_UNIQUE",
      "SHELL_PARSE_ERROR",
      "SHELL_UNSUPPORTED_CONSTRUCT",
      "SHELL_DYNAMIC_CONSTRUCT",
      "SHELL_LIMIT_EXCEEDED",
      "ENFORCEMENT_BELOW_FLOOR",
      "ENGINE_UNAVAILABLE",
      "LIMIT_EXCEEDED",
    ]);
  });

  it("every code is SCREAMING_SNAKE and documented", () => {
    for (const code of CODES) {
      expect(code).toMatch(/^[A-Z]+(_[A-Z]+)+$/);
      expect(CODE_DOCS[code].length).toBeGreaterThan(20);
      expect(isCode(code)).toBe(true);
    }
    expect(isCode("toString")).toBe(false);
  });

  it("denials/README.md is generated from the codes and up to date", () => {
    const committed = readFileSync(new URL("../../denials/README.md", import.meta.url), "utf8");
    expect(committed).toBe(renderCodeDocs(CODE_DOCS));
  });
});
