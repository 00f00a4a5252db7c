import { isIdentifier, isPunctuator, isStaticString, type Token } from "./token.js";

/** A module specifier the file refers to, with the line of the specifier string. */
export interface ModuleReference {
  readonly specifier: string;
  readonly line: number;
}

// Calls whose first argument names a module: `import("x")`, `require("x")` (also
// `import x = require("x")`), resolution helpers, and vitest's module mocks.
const MODULE_CALLS: readonly (readonly string[])[] = [
  ["import"],
  ["require"],
  ["require", "resolve"],
  ["import", "meta", "resolve"],
  ["vi", "mock"],
  ["vi", "doMock"],
  ["vi", "unmock"],
  ["vi", "doUnmock"],
  ["vi", "importActual"],
  ["vi", "importMock"],
];

function isMemberAccess(previous: Token | undefined): boolean {
  return isPunctuator(previous, ".") || isPunctuator(previous, "?.");
}

/** The string argument of `chain(` starting at `index`, if the tokens spell that call. */
function callArgument(tokens: readonly Token[], index: number, chain: readonly string[]) {
  let position = index;
  for (const [step, name] of chain.entries()) {
    if (step > 0 && !isPunctuator(tokens[position++], ".")) return undefined;
    if (!isIdentifier(tokens[position++], name)) return undefined;
  }
  if (!isPunctuator(tokens[position], "(")) return undefined;
  const argument = tokens[position + 1];
  const after = tokens[position + 2];
  if (!isStaticString(argument)) return undefined;
  return isPunctuator(after, ")") || isPunctuator(after, ",") ? argument : undefined;
}

/**
 * Static `import … from "x"`, `import "x"`, `export … from "x"`, and the calls above.
 * Specifiers computed at run time cannot be judged and are not reported.
 */
export function findModuleReferences(tokens: readonly Token[]): ModuleReference[] {
  const references: ModuleReference[] = [];
  for (const [index, token] of tokens.entries()) {
    if (token.kind !== "identifier" || isMemberAccess(tokens[index - 1])) continue;
    const next = tokens[index + 1];
    if ((token.value === "from" || token.value === "import") && isStaticString(next)) {
      references.push({ specifier: next.value, line: next.line });
      continue;
    }
    for (const chain of MODULE_CALLS) {
      const argument = callArgument(tokens, index, chain);
      if (argument !== undefined) {
        references.push({ specifier: argument.value, line: argument.line });
        break;
      }
    }
  }
  return references;
}
