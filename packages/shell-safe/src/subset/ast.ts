/**
 * The syntax tree of an accepted safe-subset script. Every node carries its exact
 * source span: `start`/`end` are UTF-16 offsets into the source string (`end`
 * exclusive), so `source.slice(start, end)` is the node's raw text, including any
 * quotes and `\<newline>` line continuations inside it.
 *
 * Shape (bash's own grammar for the subset): a script is and-or lists separated by
 * `;` or unquoted newlines; an and-or list is pipelines joined by `&&`/`||` (equal
 * precedence, left to right: run the next pipeline when the previous status says so);
 * a pipeline is `|`-joined commands; a command is words plus redirections.
 */

export interface Span {
  readonly start: number;
  readonly end: number;
}

/** Unquoted literal text: no glob characters, no escapes, continuations removed. */
export interface LiteralPart extends Span {
  readonly type: "literal";
  readonly value: string;
}

/** A backslash-quoted character outside quotes (`\*` is a literal star). */
export interface EscapedPart extends Span {
  readonly type: "escaped";
  readonly value: string;
}

/** `'…'`: the value is everything between the quotes, literally. */
export interface SingleQuotedPart extends Span {
  readonly type: "single-quoted";
  readonly value: string;
}

/** Text inside double quotes, after bash's backslash rules and continuation removal. */
export interface QuotedTextPart extends Span {
  readonly type: "quoted-text";
  readonly value: string;
}

/**
 * `$NAME` or `${NAME}`. `quoted` is true inside double quotes; an unquoted variable's
 * value is subject to bash's field splitting and globbing (admission must refuse a
 * value that would split or glob, and must drop a word that expands to nothing).
 */
export interface VariablePart extends Span {
  readonly type: "variable";
  readonly name: string;
  readonly braced: boolean;
  readonly quoted: boolean;
}

/** `"…"`: its parts are quoted text and quoted variables. */
export interface DoubleQuotedPart extends Span {
  readonly type: "double-quoted";
  readonly parts: readonly (QuotedTextPart | VariablePart)[];
}

/** An unquoted `~` at the start of a word, alone or before `/`: expands to `HOME`. */
export interface TildePart extends Span {
  readonly type: "tilde";
}

/** An unquoted glob character; the word is a pattern for bash's pathname expansion. */
export interface GlobPart extends Span {
  readonly type: "glob";
  readonly value: "*" | "?" | "[";
}

export type WordPart =
  | LiteralPart
  | EscapedPart
  | SingleQuotedPart
  | DoubleQuotedPart
  | VariablePart
  | TildePart
  | GlobPart;

export interface Word extends Span {
  readonly type: "word";
  readonly parts: readonly WordPart[];
}

/** `<`, `>`, `>>` (optionally with an explicit fd 0, 1 or 2) to a target word. */
export interface FileRedirection extends Span {
  readonly type: "redirection";
  readonly kind: "file";
  readonly fd: 0 | 1 | 2;
  /** Whether the fd was written (`2>`, `1>`, `0<`) rather than implied. */
  readonly explicitFd: boolean;
  readonly operator: "<" | ">" | ">>";
  readonly operatorSpan: Span;
  readonly target: Word;
}

/** `2>&1`: stderr joins stdout's destination at this point in source order. */
export interface DuplicateRedirection extends Span {
  readonly type: "redirection";
  readonly kind: "duplicate";
  readonly fd: 2;
  readonly from: 1;
}

export type Redirection = FileRedirection | DuplicateRedirection;

/** A simple command. `words[0]` is the program; redirections are in source order. */
export interface Command extends Span {
  readonly type: "command";
  readonly words: readonly Word[];
  readonly redirections: readonly Redirection[];
}

export interface Operator<Op extends string> extends Span {
  readonly type: "operator";
  readonly op: Op;
}

/** Stages joined by OS pipes; its status is the last stage's (no pipefail). */
export interface Pipeline extends Span {
  readonly type: "pipeline";
  readonly stages: readonly Command[];
  /** The `|` operators; `pipes[i]` joins `stages[i]` and `stages[i + 1]`. */
  readonly pipes: readonly Operator<"|">[];
}

export interface AndOrLink {
  readonly operator: Operator<"&&" | "||">;
  readonly pipeline: Pipeline;
}

/**
 * `head` always runs; each link's pipeline runs when the status of the last pipeline
 * that ran is 0 (`&&`) or non-zero (`||`). `terminator` is the `;` or newline that
 * ended the list, if any (a newline is reported as the operator `"\n"`).
 */
export interface AndOrList extends Span {
  readonly type: "and-or";
  readonly head: Pipeline;
  readonly tail: readonly AndOrLink[];
  readonly terminator: Operator<";" | "\n"> | null;
}

/** Lists run one after another; the script's status is the last list's status. */
export interface Script extends Span {
  readonly type: "script";
  readonly source: string;
  readonly lists: readonly AndOrList[];
}
