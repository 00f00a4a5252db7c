/**
 * Word-level AST of the bash parser. Every node carries exact UTF-16 offsets into the
 * parsed source (`start` inclusive, `end` exclusive): `source.slice(start, end)` is the
 * node's text, delimiters included (`${…}`, `$(…)`, quotes).
 */
import type { Script } from "./ast-command.js";

export interface Span {
  readonly start: number;
  readonly end: number;
}

/** Facts about a word the expansion stage needs, computed while scanning. */
export interface WordFlags {
  /** An unquoted `*`, `?`, `[` or an extglob group: a pathname-expansion candidate. */
  readonly glob: boolean;
  /** An unquoted `{` later followed by an unquoted `,` or `..` and `}`: a brace-expansion candidate. */
  readonly brace: boolean;
  /** Starts with an unquoted `~`: a tilde-prefix candidate. */
  readonly tilde: boolean;
  /** Some part of the word is quoted or escaped. */
  readonly quoted: boolean;
}

export interface Word extends Span {
  readonly type: "Word";
  readonly parts: readonly WordPart[];
  readonly flags: WordFlags;
}

export type WordPart =
  | Literal
  | Escaped
  | SingleQuoted
  | DoubleQuoted
  | AnsiCQuoted
  | LocaleQuoted
  | ParameterExpansion
  | CommandSubstitution
  | ArithmeticExpansion
  | ProcessSubstitution
  | ExtGlob;

/** Unquoted (or, inside double quotes, unescaped) text, line continuations removed. */
export interface Literal extends Span {
  readonly type: "Literal";
  readonly value: string;
}

/** A backslash-escaped character (`\x` → `x`). */
export interface Escaped extends Span {
  readonly type: "Escaped";
  readonly value: string;
}

export interface SingleQuoted extends Span {
  readonly type: "SingleQuoted";
  readonly value: string;
}

export interface DoubleQuoted extends Span {
  readonly type: "DoubleQuoted";
  readonly parts: readonly WordPart[];
}

/** `$'…'` with its escapes decoded into `value`. */
export interface AnsiCQuoted extends Span {
  readonly type: "AnsiCQuoted";
  readonly value: string;
}

/** `$"…"` (translated like double quotes; no catalogue is consulted). */
export interface LocaleQuoted extends Span {
  readonly type: "LocaleQuoted";
  readonly parts: readonly WordPart[];
}

export type ParameterOperation =
  | {
      readonly kind: "default";
      readonly operator: "-" | "=" | "?" | "+";
      readonly colon: boolean;
      readonly word: Word;
    }
  | {
      readonly kind: "removePrefix" | "removeSuffix";
      readonly longest: boolean;
      readonly pattern: Word;
    }
  | {
      readonly kind: "replace";
      readonly mode: "first" | "all" | "prefix" | "suffix";
      readonly pattern: Word;
      readonly replacement: Word | null;
    }
  | { readonly kind: "substring"; readonly offset: Arithmetic; readonly length: Arithmetic | null }
  | {
      readonly kind: "case";
      readonly operator: "^" | "^^" | "," | ",,";
      readonly pattern: Word | null;
    }
  | { readonly kind: "transform"; readonly operator: string }
  /** Not a valid operator: bash parses it and fails with "bad substitution" when it runs. */
  | { readonly kind: "invalid"; readonly text: string };

/**
 * `$name`, `$1`, `$@`, `${…}`. `length` is `${#…}`; `indirect` is `${!name…}`;
 * `names` is `${!prefix*}` / `${!prefix@}`; `${!a[@]}` is `indirect` with an `index`
 * of `@` (the interpreter reads it as "the keys").
 */
export interface ParameterExpansion extends Span {
  readonly type: "ParameterExpansion";
  readonly braced: boolean;
  readonly parameter: string;
  /** The subscript of `name[…]`, as arithmetic/word text (`@` and `*` included verbatim). */
  readonly index: Word | null;
  readonly length: boolean;
  readonly indirect: boolean;
  readonly names: "*" | "@" | null;
  readonly operation: ParameterOperation | null;
}

/** `$(…)` or `` `…` ``; the body is parsed as a nested script. */
export interface CommandSubstitution extends Span {
  readonly type: "CommandSubstitution";
  readonly backquote: boolean;
  readonly script: Script;
}

/**
 * The text of an arithmetic expression with its expansions parsed as word parts
 * (`$x`, `${…}`, `$(…)` nest as sub-trees); the operator grammar is evaluated later
 * (bash itself expands the text first and then parses the result).
 */
export interface Arithmetic extends Span {
  readonly type: "Arithmetic";
  readonly parts: readonly WordPart[];
}

/** `$((…))`, or the deprecated `$[…]` (`legacy`). */
export interface ArithmeticExpansion extends Span {
  readonly type: "ArithmeticExpansion";
  readonly legacy: boolean;
  readonly expression: Arithmetic;
}

export interface ProcessSubstitution extends Span {
  readonly type: "ProcessSubstitution";
  readonly direction: "<" | ">";
  readonly script: Script;
}

/** An extglob group `?(…)` `*(…)` `+(…)` `@(…)` `!(…)`; `parts` is the text inside the parentheses. */
export interface ExtGlob extends Span {
  readonly type: "ExtGlob";
  readonly operator: "?" | "*" | "+" | "@" | "!";
  readonly parts: readonly WordPart[];
}
