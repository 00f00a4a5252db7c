/** The expression grammar inside `[[ … ]]`. */
import type { Span, Word } from "./ast-word.js";

export type ConditionalExpression =
  | ConditionalUnary
  | ConditionalBinary
  | ConditionalWord
  | ConditionalNot
  | ConditionalLogical
  | ConditionalGroup;

/** `-f file`, `-z string`, `-v name`, … */
export interface ConditionalUnary extends Span {
  readonly type: "ConditionalUnary";
  readonly operator: string;
  readonly operand: Word;
}

/** `a == pattern`, `a =~ regex`, `a -lt b`, `a < b`, `f -nt g`, … */
export interface ConditionalBinary extends Span {
  readonly type: "ConditionalBinary";
  readonly operator: string;
  readonly left: Word;
  readonly right: Word;
}

/** A lone word: true when non-empty. */
export interface ConditionalWord extends Span {
  readonly type: "ConditionalWord";
  readonly word: Word;
}

export interface ConditionalNot extends Span {
  readonly type: "ConditionalNot";
  readonly operand: ConditionalExpression;
}

export interface ConditionalLogical extends Span {
  readonly type: "ConditionalLogical";
  readonly operator: "&&" | "||";
  readonly left: ConditionalExpression;
  readonly right: ConditionalExpression;
}

export interface ConditionalGroup extends Span {
  readonly type: "ConditionalGroup";
  readonly expression: ConditionalExpression;
}
