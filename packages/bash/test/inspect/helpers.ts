import { expect } from "vitest";
import { inspectShell, type ShellInspection, ShellInspectionError } from "../../src/index.js";

/** The inspection's error message; fails the test when `source` was inspected. */
export function refusal(source: string): string {
  try {
    const inspection = inspectShell(source);
    throw new Error(
      `expected ${JSON.stringify(source)} to fail closed, got ${JSON.stringify(inspection)}`,
    );
  } catch (error) {
    if (!ShellInspectionError.isInstance(error)) throw error;
    return error.message;
  }
}

export function inspected(source: string): ShellInspection {
  const inspection = inspectShell(source);
  expect(inspection.schema_version).toBe(1);
  return inspection;
}

export function programs(source: string): (string | null)[] {
  return inspected(source).commands.map((command) => command.program);
}
