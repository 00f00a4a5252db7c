/** Whether an option takes an argument (getopt's `no_argument` / `required_argument`…). */
export type ArgumentKind = "none" | "required" | "optional";

/** One long option, in the order of the GNU utility's table (ambiguity lists follow it). */
export interface LongOption {
  readonly name: string;
  readonly argument: ArgumentKind;
  /** The key reported for it: a short option letter or the long name. */
  readonly key: string;
}

/** A utility's options: the getopt short string (`"c:n:qv"`) and its long table. */
export interface OptionSpec {
  readonly short: string;
  readonly long: readonly LongOption[];
}

/** One parsed option occurrence, in command-line order. */
export interface ParsedOption {
  readonly key: string;
  readonly value: string | undefined;
  /** How it was written (`-n`, `--lines`), for diagnostics. */
  readonly spelling: string;
}

export type ParseResult =
  | {
      readonly ok: true;
      readonly options: readonly ParsedOption[];
      readonly operands: readonly string[];
    }
  | {
      readonly ok: false;
      readonly message: string;
      /** The options read before the failing argument (GNU acts on `--help` as it reads it). */
      readonly options: readonly ParsedOption[];
    };
