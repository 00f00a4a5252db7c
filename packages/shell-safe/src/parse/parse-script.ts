import type { Script } from "./ast.js";
import { checkHiddenCharacters } from "./hidden-characters.js";
import { type ParseOptions, resolveLimits } from "./limits.js";
import { Parser } from "./parser.js";
import { limitExceeded, type ShellRefusal, ShellRefusalSignal } from "./refusal.js";

export type ParseResult =
  | { readonly ok: true; readonly script: Script }
  | { readonly ok: false; readonly refusal: ShellRefusal };

/**
 * Parses a safe-subset script. Accepted scripts mean exactly what
 * `bash --norc --noprofile -c` makes of them (after admission expands the flagged
 * variables, tilde and globs); anything else is refused with a reason and the exact
 * source span of the first offending construct. Never throws for any input string.
 */
export function parseScript(source: string, options?: ParseOptions): ParseResult {
  const limits = resolveLimits(options);
  try {
    if (source.length > limits.maxSourceLength) {
      throw limitExceeded(
        "source length",
        `the script is longer than ${limits.maxSourceLength} characters`,
        limits.maxSourceLength,
        source.length,
      );
    }
    checkHiddenCharacters(source);
    return { ok: true, script: new Parser(source, limits).parseScript() };
  } catch (error) {
    if (error instanceof ShellRefusalSignal) return { ok: false, refusal: error.refusal };
    throw error;
  }
}
