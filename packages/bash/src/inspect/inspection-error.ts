/** Why a script has no inspection: it cannot be projected exactly without running it. */

const BRAND = Symbol.for("@agent-bridle/bash/ShellInspectionError");

/**
 * Thrown by `inspectShell` when the script fails closed (reference §7.2): malformed
 * syntax, a command name or value only known at run time, a dispatcher or interpreter
 * that would run commands absent from the inventory, an unsupported construct, or a
 * limit. `message` is the single reason. Branded, so `isInstance` survives two copies.
 */
export class ShellInspectionError extends Error {
  readonly [BRAND] = true;

  constructor(message: string) {
    super(message);
    this.name = "ShellInspectionError";
  }

  static isInstance(value: unknown): value is ShellInspectionError {
    return (
      typeof value === "object" &&
      value !== null &&
      (value as { [BRAND]?: unknown })[BRAND] === true
    );
  }
}

/** Quotes a piece of the script for a message, shortened when long. */
export function quoteSource(text: string): string {
  const short = text.length > 60 ? `${text.slice(0, 57)}...` : text;
  return `\`${short}\``;
}
