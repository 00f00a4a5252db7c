/**
 * The `shell_inspection` schema, version 1 (reference §7.1): a parse-only, source-bound
 * inventory of a bash script for approval screens. Field names are the JSON contract.
 * It is approval metadata, not enforcement, and not a process graph.
 */

export const SHELL_INSPECTION_SCHEMA_VERSION = 1;

/** Largest source inspected, in UTF-8 bytes. */
export const MAX_INSPECTION_SOURCE_BYTES = 32 * 1024;

/** Deepest nesting of substitutions inside substitutions. */
export const MAX_INSPECTION_DEPTH = 32;

export interface ShellInspection {
  readonly schema_version: typeof SHELL_INSPECTION_SCHEMA_VERSION;
  /** The exact text inspected (for a nested inspection: the substitution's body). */
  readonly source: string;
  /** Every command stage in source order, flattened (no pipeline or control-flow edges). */
  readonly commands: readonly InspectedCommand[];
  /** Substitutions and arithmetic written directly in this source (not inside a nested one). */
  readonly constructs: readonly InspectedConstruct[];
  /** Safety facts the inventory does not encode. */
  readonly warnings: readonly string[];
}

export interface InspectedCommand {
  /** The stage's exact text: its assignments, words and redirections. */
  readonly source: string;
  /** The statically known command name (quotes and escapes removed), or null when there is none. */
  readonly program: string | null;
  /** The raw, unexpanded words in argv position, program first. */
  readonly argv: readonly string[];
  readonly redirects: readonly InspectedRedirect[];
  /** Programs the stage's `find` starts itself (`-exec` and friends); empty for other programs. */
  readonly descendant_execs: readonly DescendantExec[];
}

export type RedirectOperation =
  | "read"
  | "write"
  | "append"
  | "read_write"
  | "clobber"
  | "duplicate_input"
  | "duplicate_output"
  | "here_document"
  | "here_string"
  | "output_and_error"
  | "append_output_and_error";

export interface InspectedRedirect {
  /** The descriptor written before the operator, or null for the operator's default. */
  readonly fd: number | null;
  readonly operation: RedirectOperation;
  /** The raw target word (a file, a descriptor number as text, or a here-string). */
  readonly target: string;
}

export interface DescendantExec {
  readonly program: string;
  /** Program first, in source form, up to (not including) the terminator. */
  readonly argv: readonly string[];
  /** The exact text from the action word (`-exec`, …) through its terminator. */
  readonly source: string;
  /** Why the bash engine cannot check it. */
  readonly reason: string;
}

export type ConstructKind =
  | "command_substitution"
  | "backquote_substitution"
  | "arithmetic_expansion";

export interface InspectedConstruct {
  readonly kind: ConstructKind;
  /** With its delimiters (`$(…)`, `` `…` ``, `$((…))`). */
  readonly source: string;
  /** Without its delimiters. */
  readonly body: string;
  /** Written inside double quotes (so not split or globbed). */
  readonly quoted: boolean;
  /** The substitution's own inventory; null for arithmetic. */
  readonly inspection: ShellInspection | null;
}
