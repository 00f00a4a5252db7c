/**
 * The rules the boundary check and the guardrails (ADR 0026) enforce; each violation names
 * exactly one.
 */
export type Rule =
  | "layer-order"
  | "engine-to-engine"
  | "core-forbidden-module"
  | "core-process-env"
  | "bash-forbidden-module"
  | "bash-process-env"
  | "second-bash-language"
  | "deep-import"
  | "relative-escape"
  | "dev-tool-import"
  | "manifest-layer"
  | "dev-tool-dependency"
  | "unknown-package"
  | "package-name"
  | "file-length"
  | "function-length"
  | "mutable-field"
  | "public-surface"
  | "stale-exception";

/** One broken boundary: where it is, which rule, and what to do instead. */
export interface Violation {
  /** Path relative to the workspace root, with forward slashes. */
  readonly file: string;
  /** 1-based line of the offending specifier, read or manifest key. */
  readonly line: number;
  readonly rule: Rule;
  readonly message: string;
}

export function compareViolations(a: Violation, b: Violation): number {
  if (a.file !== b.file) return a.file < b.file ? -1 : 1;
  if (a.line !== b.line) return a.line - b.line;
  return a.rule < b.rule ? -1 : a.rule > b.rule ? 1 : 0;
}
