import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { DirectoryTreeToolResultSchema } from "../../src/envelope/directory-tree-result.js";
import {
  FileInfoToolResultSchema,
  ListDirectoryToolResultSchema,
  ReadFileToolResultSchema,
  WriteFileToolResultSchema,
} from "../../src/envelope/fs-result.js";
import { ListAllowedDirectoriesToolResultSchema } from "../../src/envelope/list-allowed-directories-result.js";
import { SearchFilesToolResultSchema } from "../../src/envelope/search-files-result.js";

const golden = (name: string) =>
  JSON.parse(readFileSync(new URL(`../fixtures/golden/${name}.json`, import.meta.url), "utf8"));

describe("fs-tool result golden fixtures (spec §4)", () => {
  it.each([
    ["read-file-result", ReadFileToolResultSchema],
    ["list-directory-result", ListDirectoryToolResultSchema],
    ["file-info-result", FileInfoToolResultSchema],
    ["write-file-result", WriteFileToolResultSchema],
    ["write-file-denied", WriteFileToolResultSchema],
    ["search-files-result", SearchFilesToolResultSchema],
    ["list-allowed-directories-result", ListAllowedDirectoriesToolResultSchema],
    ["directory-tree-result", DirectoryTreeToolResultSchema],
  ] as const)("%s parses unchanged (exact keys, round-trip)", (name, schema) => {
    const value = golden(name);
    expect(schema.parse(value)).toEqual(value);
  });

  it("a result and a denial are exclusive; denied is set iff denials is", () => {
    const ok = golden("write-file-result");
    const refused = golden("write-file-denied");
    expect(
      WriteFileToolResultSchema.safeParse({ ...ok, denied: true, denials: refused.denials })
        .success,
    ).toBe(false);
    expect(WriteFileToolResultSchema.safeParse({ ...refused, denied: undefined }).success).toBe(
      false,
    );
    expect(
      WriteFileToolResultSchema.safeParse({ ...ok, result: { ...ok.result, extra: 1 } }).success,
    ).toBe(false);
  });

  it("booleans are booleans, never text markers", () => {
    const read = golden("read-file-result");
    expect(
      ReadFileToolResultSchema.safeParse({ ...read, result: { ...read.result, truncated: "yes" } })
        .success,
    ).toBe(false);
  });
});
