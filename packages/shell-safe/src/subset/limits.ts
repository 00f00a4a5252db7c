/** Caps that keep parsing bounded; exceeding one refuses the script (never truncates). */
export interface ParseLimits {
  /** Maximum source length in UTF-16 code units. */
  readonly maxSourceLength: number;
  /** Maximum simple commands (pipeline stages) in the whole script. */
  readonly maxCommands: number;
  /** Maximum words (arguments and redirection targets) in the whole script. */
  readonly maxWords: number;
}

export const DEFAULT_PARSE_LIMITS: ParseLimits = Object.freeze({
  maxSourceLength: 64 * 1024,
  maxCommands: 256,
  maxWords: 4096,
});

export interface ParseOptions {
  readonly limits?: Partial<ParseLimits>;
}

export function resolveLimits(options: ParseOptions | undefined): ParseLimits {
  return { ...DEFAULT_PARSE_LIMITS, ...options?.limits };
}
