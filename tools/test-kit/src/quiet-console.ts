import { afterEach, beforeEach, vi } from "vitest";

// Tests must be quiet: an unexpected console call is a failure (a leaked diagnostic
// is a bug in a library whose output a model may read).
const methods = ["log", "info", "warn", "error", "debug"] as const;
let calls: string[] = [];

beforeEach(() => {
  calls = [];
  for (const method of methods) {
    vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
      calls.push(`console.${method}: ${args.map(String).join(" ")}`);
    });
  }
});

afterEach(() => {
  vi.restoreAllMocks();
  if (calls.length > 0) {
    throw new Error(`unexpected console output in test:\n${calls.join("\n")}`);
  }
});
