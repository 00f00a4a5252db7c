import { describe, expect, it } from "vitest";
import { checkBoundaries } from "../src/index.js";
import { findModuleReferences } from "../src/module-references.js";
import { findProcessEnvReads } from "../src/process-env-reads.js";
import { tokenize } from "../src/tokenize.js";
import { createWorkspace } from "./helpers/temp-workspace.js";

function references(source: string): string[] {
  return findModuleReferences(tokenize(source)).map(
    ({ specifier, line }) => `${line}:${specifier}`,
  );
}

// Text that looks like an import or an environment read but is not code.
const traps = [
  '// import { x } from "@agent-bridle/shell-brush";',
  '/* import("node:child_process"); process.env.HOME */',
  "/**\n * require('execa') and process['env']\n */",
  "const text = \"import x from '@agent-bridle/shell-host'; process.env\";",
  "const quoted = 'from \"node:net\"';",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: lexer input, not a template
  'const template = `import("node:http") ${\'from "node:dgram"\'} process.env`;',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: lexer input, not a template
  "const nested = `outer ${`inner ${\"require('net')\"}`} done`;",
  'const pattern = /["\']import("x")[\'"]/g; const other = /\\/* not a comment/;',
  'const divided = (4) / 2; const name = Buffer.from("process.env");',
  "const member = registry.require(\"node:child_process\"); object.import('node:net');",
  "const env = { process: 1 }.process; const processEnv = environment.env;",
];

describe("the lexer ignores comments, strings, templates and regular expressions", () => {
  it.each(traps)("%s", (source) => {
    const tokens = tokenize(source);
    expect(findModuleReferences(tokens)).toEqual([]);
    expect(findProcessEnvReads(tokens)).toEqual([]);
  });

  it("still finds the code after each trap, on the right line", () => {
    const source = `${traps.join("\n")}\nimport { a } from "./after.js";`;
    const line = source.split("\n").length;
    expect(references(source)).toEqual([`${line}:./after.js`]);
  });

  it("finds every import form", () => {
    const source = [
      "#!/usr/bin/env node",
      'import a from "a";',
      'import type { B } from "b";',
      'import "c";',
      'export * from "d";',
      'export { e } from "e";',
      'const f = await import("f");',
      "const g = require('g');",
      'import h = require("h");',
      "const i = import(`i`);",
      'type J = typeof import("j");',
      'const k = require.resolve("k");',
      'vi.mock("l", () => ({}));',
      'const m = import.meta.resolve("m");',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: lexer input, not a template
      "const n = import(`n${suffix}`);",
    ].join("\n");
    expect(references(source)).toEqual([
      "2:a",
      "3:b",
      "4:c",
      "5:d",
      "6:e",
      "7:f",
      "8:g",
      "9:h",
      "10:i",
      "11:j",
      "12:k",
      "13:l",
      "14:m",
    ]);
  });

  it("finds the environment read forms", () => {
    const source = [
      "process.env.A;",
      "process?.env;",
      'process["env"];',
      "process?.['env'];",
      "globalThis.process.env;",
      "const { env: environment } = process;",
      "process.argv;",
    ].join("\n");
    expect(findProcessEnvReads(tokenize(source))).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it("passes a core package whose comments and strings mention forbidden things", async () => {
    const workspace = await createWorkspace({
      "packages/core/src/traps.ts": traps.join("\n"),
      "packages/core/test/self.test.ts":
        'import { name } from "@agent-bridle/core";\nimport "../src/index.js";\n',
    });
    try {
      expect(await checkBoundaries(workspace.root)).toEqual([]);
    } finally {
      await workspace.remove();
    }
  });
});
