import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { scratch, sh } from "./run.js";

function tree(): string {
  const root = scratch();
  mkdirSync(join(root, "a/b"), { recursive: true });
  for (const file of ["a/b/c.txt", "a/d.txt", "e.txt", "f.log", ".hidden.txt"])
    writeFileSync(join(root, file), "");
  symlinkSync("nowhere", join(root, "a/dangling.txt"));
  return root;
}

describe("interpreter: pathname expansion", () => {
  it("matches **, extglob groups, dangling links and honours GLOBIGNORE (as bash 5.2)", async () => {
    const result = await sh(
      [
        "shopt -s globstar extglob",
        "echo **/*.txt",
        "echo */dangling.txt */missing.txt",
        "echo !(*.txt) +(e|f).@(txt|log)",
        "GLOBIGNORE=e.txt; echo *.txt",
      ].join("\n"),
      tree(),
    );
    expect(result.stdout).toBe(
      [
        "a/b/c.txt a/d.txt a/dangling.txt e.txt",
        "a/dangling.txt */missing.txt",
        "a f.log e.txt f.log",
        ".hidden.txt",
        "",
      ].join("\n"),
    );
  });
});
