import type { ModuleReference } from "../module-references.js";
import type { Violation } from "../violation.js";
import type { FileContext } from "./file-context.js";

// @agent-bridle/bash is the bash language and nothing else (ADR 0022): no dependencies and
// no I/O. Its shipped source imports its own files and `node:path` (pure path joining for
// pathname expansion, whose file-system access the caller injects), nothing else, and it
// never reads the environment. Its tests may build fixtures with node APIs.
const ALLOWED_NODE_MODULES = ["node:path"];

/** A file of bash's shipped source, the code the purity rules apply to. */
export function isBashSource(context: FileContext): boolean {
  return context.owner.layer?.directory === "bash" && context.folder === "src";
}

export function checkBashModule(
  context: FileContext,
  reference: ModuleReference,
): Violation | undefined {
  if (!isBashSource(context)) return undefined;
  const { specifier } = reference;
  if (specifier.startsWith(".") || ALLOWED_NODE_MODULES.includes(specifier)) return undefined;
  return {
    file: context.relativeFile,
    line: reference.line,
    rule: "bash-forbidden-module",
    message:
      `@agent-bridle/bash imports "${specifier}": the bash language package has no ` +
      "dependencies and does no I/O. Take what it needs as a parameter (as pathname " +
      "expansion takes a GlobAccess), or do it in the engine that uses it.",
  };
}

export function bashEnvViolation(context: FileContext, line: number): Violation {
  return {
    file: context.relativeFile,
    line,
    rule: "bash-process-env",
    message:
      "@agent-bridle/bash reads process.env: the language package takes every value as a " +
      "parameter. Read the environment in the engine and pass the values in.",
  };
}
