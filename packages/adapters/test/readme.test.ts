import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

// The README's examples, type-checked under `strict` as a host would compile them: the
// first TypeScript block (the registry and the grant) prepended to each framework's block,
// each as a module inside this package (so the frameworks resolve as a host's would).
const packageRoot = fileURLToPath(new URL("../", import.meta.url));
const readme = readFileSync(`${packageRoot}README.md`, "utf8");
const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1] ?? "");
const [setup = "", ...examples] = blocks;

const OPTIONS: ts.CompilerOptions = {
  strict: true,
  noEmit: true,
  skipLibCheck: true,
  target: ts.ScriptTarget.ES2023,
  lib: ["lib.es2023.d.ts"],
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  types: ["node"],
  // This package's own subpaths resolve to its sources (no build needed).
  customConditions: ["@agent-bridle/source"],
};

function diagnosticsOf(source: string): string[] {
  const file = `${packageRoot}readme-example.mts`;
  const host = ts.createCompilerHost(OPTIONS);
  const { getSourceFile, fileExists, readFile } = host;
  host.fileExists = (name) => name === file || fileExists(name);
  host.readFile = (name) => (name === file ? source : readFile(name));
  host.getSourceFile = (name, language, ...rest) =>
    name === file
      ? ts.createSourceFile(name, source, language)
      : getSourceFile(name, language, ...rest);
  const program = ts.createProgram([file], OPTIONS, host);
  return ts
    .getPreEmitDiagnostics(program)
    .filter((diagnostic) => diagnostic.file?.fileName === file || diagnostic.file === undefined)
    .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"));
}

describe("README examples", () => {
  it("has the setup and one example per framework", () => {
    expect(setup).toContain("mintGrant");
    expect(
      examples.map((example) => /from "@agent-bridle\/adapters\/([a-z-]+)"/.exec(example)?.[1]),
    ).toEqual(["ai", "langchain", "openai-agents"]);
  });

  it("sees a type error in an example (a missing grant)", () => {
    const broken = `import { bridleToolSet } from "@agent-bridle/adapters/ai";\nbridleToolSet({ registry: tools });\n`;
    expect(diagnosticsOf(`${setup}\n${broken}`).join("\n")).toContain("grant");
  }, 60_000);

  it.each(examples.map((example, index) => [index, example] as const))(
    "example %i type-checks under strict",
    (_index, example) => {
      expect(diagnosticsOf(`${setup}\n${example}`)).toEqual([]);
    },
    60_000,
  );
});
