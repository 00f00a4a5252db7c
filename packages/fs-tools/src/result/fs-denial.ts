import { type Code, createDenial, type Denial } from "@agent-bridle/core";

/** What a tool was doing when it refused, named in the reason. */
export type ToolOperation = "read" | "list" | "describe" | "write" | "search";

const QUOTE_LIMIT = 256;

/** A caller string quoted for a reason (JSON, cut to a readable length), never spliced. */
export function quotePath(text: string): string {
  return JSON.stringify(text.length > QUOTE_LIMIT ? `${text.slice(0, QUOTE_LIMIT)}…` : text);
}

/**
 * A tool's own refusal (not one of the judge's): kind `open`, target the path as the
 * caller sent it, a reason that says what was refused and what to do instead. Never
 * holds file contents.
 */
export function createToolDenial(
  operation: ToolOperation,
  requested: string,
  code: Code,
  explanation: string,
): Denial {
  return createDenial(
    "open",
    requested,
    code,
    `${operation} of ${quotePath(requested)}: ${explanation}`,
  );
}

/**
 * A judge's denial with its target set back to the path as the caller spelled it (the
 * judge saw the absolute, dot-free path the tools derive from it; its reason names that).
 */
export function retarget(denial: Denial, requested: string): Denial {
  if (denial.target === requested) return denial;
  return createDenial(denial.kind, requested, denial.code, denial.reason);
}
