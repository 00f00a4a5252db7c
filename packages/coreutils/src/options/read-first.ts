import type { ParsedOption } from "./option-spec.js";

/**
 * `--help` or `--version` among the options read before a parse failure: GNU acts on
 * these as its getopt loop reads them (`ls --help -y` prints the help), so a failure
 * after one is not what GNU prints. The spelling, or `undefined`.
 */
export function actedOnWhileReading(options: readonly ParsedOption[]): string | undefined {
  return options.find((option) => option.key === "help" || option.key === "version")?.spelling;
}
