import type { Violation } from "./violation.js";

/** `file:line [rule] message`, one line per violation (editors make the location clickable). */
export function formatViolation(violation: Violation): string {
  return `${violation.file}:${violation.line} [${violation.rule}] ${violation.message}`;
}
