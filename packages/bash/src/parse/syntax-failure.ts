/** The internal exception that unwinds the recursive-descent parser on a syntax error. */
export class SyntaxFailure extends Error {
  readonly offset: number;

  constructor(message: string, offset: number) {
    super(message);
    this.name = "SyntaxFailure";
    this.offset = offset;
  }
}

/** bash's wording for an unexpected token (`newline` for a line break). */
export function unexpectedToken(text: string, offset: number): SyntaxFailure {
  return new SyntaxFailure(`syntax error near unexpected token \`${text}'`, offset);
}

export function unexpectedEnd(offset: number): SyntaxFailure {
  return new SyntaxFailure("syntax error: unexpected end of file", offset);
}

export function unmatched(quote: string, offset: number): SyntaxFailure {
  return new SyntaxFailure(`unexpected EOF while looking for matching \`${quote}'`, offset);
}
