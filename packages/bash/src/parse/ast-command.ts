/** Command-level AST of the bash parser (offsets as in `ast-word.ts`). */
import type { ConditionalExpression } from "./ast-conditional.js";
import type { Arithmetic, Span, Word } from "./ast-word.js";

export interface Script extends Span {
  readonly type: "Script";
  readonly body: List;
}

/** Statements separated by `;`, `&` or newlines. */
export interface List extends Span {
  readonly type: "List";
  readonly statements: readonly Statement[];
}

/** One and-or list; `background` when it was terminated by `&` (included in the span). */
export interface Statement extends Span {
  readonly type: "Statement";
  readonly andOr: AndOr;
  readonly background: boolean;
}

export interface AndOr extends Span {
  readonly type: "AndOr";
  readonly pipelines: readonly Pipeline[];
  /** `operators[i]` joins `pipelines[i]` and `pipelines[i + 1]`. */
  readonly operators: readonly ("&&" | "||")[];
}

export interface Pipeline extends Span {
  readonly type: "Pipeline";
  readonly negated: boolean;
  readonly timed: "time" | "time -p" | null;
  readonly commands: readonly Command[];
  /** `operators[i]` joins `commands[i]` and `commands[i + 1]`; `|&` also pipes stderr. */
  readonly operators: readonly ("|" | "|&")[];
}

export type Command = SimpleCommand | CompoundCommand | FunctionDefinition;

export interface SimpleCommand extends Span {
  readonly type: "SimpleCommand";
  readonly assignments: readonly Assignment[];
  /**
   * The command word and arguments. After a declaration builtin (`declare`, `typeset`,
   * `local`, `export`, `readonly`) an argument shaped like an assignment is an
   * `Assignment` (bash parses `declare -a x=(1 2)` that way); everything else is a `Word`.
   */
  readonly words: readonly (Word | Assignment)[];
  /** In source order; they may be written before, between or after the words. */
  readonly redirects: readonly Redirect[];
}

export interface Assignment extends Span {
  readonly type: "Assignment";
  readonly name: string;
  readonly index: Word | null;
  readonly append: boolean;
  readonly value: Word | ArrayLiteral | null;
}

export interface ArrayLiteral extends Span {
  readonly type: "ArrayLiteral";
  readonly elements: readonly ArrayElement[];
}

/** `value` or `[index]=value` (`[index]+=value` sets `append`). */
export interface ArrayElement extends Span {
  readonly type: "ArrayElement";
  readonly index: Word | null;
  readonly append: boolean;
  readonly value: Word;
}

export type RedirectOperator =
  | "<"
  | ">"
  | ">>"
  | ">|"
  | "<>"
  | "<&"
  | ">&"
  | "&>"
  | "&>>"
  | "<<"
  | "<<-"
  | "<<<";

export interface Redirect extends Span {
  readonly type: "Redirect";
  /** Explicit descriptor number (`2>`), else null (the operator's default). */
  readonly fd: number | null;
  /** `{name}>file`: bash allocates a descriptor and stores it in `name`. */
  readonly fdVariable: string | null;
  readonly operator: RedirectOperator;
  /** The file, descriptor word, here-string or here-document delimiter word. */
  readonly target: Word;
  readonly heredoc: Heredoc | null;
}

/** A here-document body; its span is the body text after the command line (outside the redirect's span). */
export interface Heredoc extends Span {
  readonly type: "Heredoc";
  readonly delimiter: string;
  /** A quoted delimiter: the body is literal (no expansions). */
  readonly quoted: boolean;
  readonly stripTabs: boolean;
  /** Body text (tabs stripped for `<<-`), with expansions parsed unless `quoted`. */
  readonly body: Word;
}

export interface CompoundCommand extends Span {
  readonly type: "CompoundCommand";
  readonly body: Compound;
  readonly redirects: readonly Redirect[];
}

export type Compound =
  | BraceGroup
  | Subshell
  | IfCommand
  | WhileCommand
  | ForCommand
  | ArithmeticForCommand
  | SelectCommand
  | CaseCommand
  | ConditionalCommand
  | ArithmeticCommand;

export interface BraceGroup extends Span {
  readonly type: "BraceGroup";
  readonly body: List;
}

export interface Subshell extends Span {
  readonly type: "Subshell";
  readonly body: List;
}

export interface IfClause extends Span {
  readonly type: "IfClause";
  readonly condition: List;
  readonly body: List;
}

export interface IfCommand extends Span {
  readonly type: "If";
  /** The `if` clause, then each `elif`. */
  readonly clauses: readonly IfClause[];
  readonly elseBody: List | null;
}

export interface WhileCommand extends Span {
  readonly type: "While";
  readonly until: boolean;
  readonly condition: List;
  readonly body: List;
}

export interface LoopVariable extends Span {
  readonly type: "LoopVariable";
  readonly name: string;
}

/** `for name [in words]; do …; done`; `words` null means `"$@"`. */
export interface ForCommand extends Span {
  readonly type: "For";
  readonly variable: LoopVariable;
  readonly words: readonly Word[] | null;
  readonly body: List;
}

export interface SelectCommand extends Span {
  readonly type: "Select";
  readonly variable: LoopVariable;
  readonly words: readonly Word[] | null;
  readonly body: List;
}

export interface ArithmeticForCommand extends Span {
  readonly type: "ArithmeticFor";
  readonly init: Arithmetic;
  readonly test: Arithmetic;
  readonly update: Arithmetic;
  readonly body: List;
}

export interface CaseItem extends Span {
  readonly type: "CaseItem";
  readonly patterns: readonly Word[];
  readonly body: List;
  /** `;;` stop, `;&` fall through, `;;&` test the next patterns; null after the last item. */
  readonly terminator: ";;" | ";&" | ";;&" | null;
}

export interface CaseCommand extends Span {
  readonly type: "Case";
  readonly word: Word;
  readonly items: readonly CaseItem[];
}

/** `[[ … ]]`. */
export interface ConditionalCommand extends Span {
  readonly type: "Conditional";
  readonly expression: ConditionalExpression;
}

/** `(( … ))`. */
export interface ArithmeticCommand extends Span {
  readonly type: "ArithmeticCommand";
  readonly expression: Arithmetic;
}

/** `name() body` or `function name [()] body`; the body is a compound command. */
export interface FunctionDefinition extends Span {
  readonly type: "FunctionDefinition";
  readonly name: string;
  readonly keyword: boolean;
  readonly body: CompoundCommand;
}
