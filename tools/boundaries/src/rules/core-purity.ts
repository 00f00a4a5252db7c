import type { ModuleReference } from "../module-references.js";
import type { Violation } from "../violation.js";
import type { FileContext } from "./file-context.js";

// core is pure at run time (spec style §9.2): no processes, network, workers, HTTP or
// execa, and configuration arrives as parameters rather than from the environment.
// Only shipped source (packages/core/src) is held to it: core's tests may build
// fixtures with node APIs (for example mkfifo through child_process).
const FORBIDDEN = [
  "child_process",
  "net",
  "dgram",
  "http",
  "https",
  "http2",
  "tls",
  "cluster",
  "worker_threads",
  "process",
];

function isForbidden(specifier: string): boolean {
  const bare = specifier.startsWith("node:") ? specifier.slice("node:".length) : specifier;
  return FORBIDDEN.includes(bare) || specifier === "execa" || specifier.startsWith("execa/");
}

/** A file of core's shipped source, the code the purity rules apply to. */
export function isCoreSource(context: FileContext): boolean {
  return context.owner.layer?.directory === "core" && context.folder === "src";
}

export function checkCoreModule(
  context: FileContext,
  reference: ModuleReference,
): Violation | undefined {
  if (!isCoreSource(context) || !isForbidden(reference.specifier)) return undefined;
  return {
    file: context.relativeFile,
    line: reference.line,
    rule: "core-forbidden-module",
    message:
      `@agent-bridle/core imports "${reference.specifier}": core is pure (no processes, ` +
      "network, workers or environment). Do this in @agent-bridle/sandbox (the spawn funnel) " +
      "or a higher layer, and pass what core needs in as a parameter.",
  };
}

export function coreEnvViolation(context: FileContext, line: number): Violation {
  return {
    file: context.relativeFile,
    line,
    rule: "core-process-env",
    message:
      "@agent-bridle/core reads process.env: core takes configuration as parameters. Read " +
      "the environment in the caller (the facade, the MCP server or a tool) and pass the " +
      "values in.",
  };
}
