/**
 * `template` is a template literal without substitutions; a template with
 * substitutions is split into `template-head`, `template-middle` and `template-tail`
 * around the code inside `${…}`, which is tokenized normally.
 */
export type TokenKind =
  | "identifier"
  | "punctuator"
  | "number"
  | "string"
  | "regex"
  | "template"
  | "template-head"
  | "template-middle"
  | "template-tail";

export interface Token {
  readonly kind: TokenKind;
  /** Identifier or punctuator text; the contents (quotes removed) of a string or template. */
  readonly value: string;
  /** 1-based line where the token starts. */
  readonly line: number;
}

/** A string whose value is known without running code: a quoted string or a plain template. */
export function isStaticString(token: Token | undefined): token is Token {
  return token !== undefined && (token.kind === "string" || token.kind === "template");
}

export function isPunctuator(token: Token | undefined, value: string): boolean {
  return token !== undefined && token.kind === "punctuator" && token.value === value;
}

export function isIdentifier(token: Token | undefined, value: string): boolean {
  return token !== undefined && token.kind === "identifier" && token.value === value;
}
