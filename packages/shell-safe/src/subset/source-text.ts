/**
 * Reading the source between the nodes of bash's AST, which records no operator spans:
 * bash removes a backslash-newline pair before it reads a token, and `#` at the start of a
 * token starts a comment that runs to the newline.
 */

/** The first offset at or after `offset` that does not start a line continuation. */
export function skipContinuations(source: string, offset: number): number {
  let position = offset;
  while (source[position] === "\\" && source[position + 1] === "\n") position += 2;
  return position;
}

/** The first offset at or after `offset` that is not a blank, continuation or comment. */
export function skipBlanksAndComments(source: string, offset: number): number {
  let at = offset;
  for (;;) {
    at = skipContinuations(source, at);
    const char = source[at];
    if (char === " " || char === "\t") at += 1;
    else if (char === "#") {
      const newline = source.indexOf("\n", at);
      at = newline < 0 ? source.length : newline;
    } else return at;
  }
}

/** The span of `operator` written at the next token after `offset`, or null. */
export function operatorAfter(
  source: string,
  offset: number,
  operator: string,
): { readonly start: number; readonly end: number } | null {
  const start = skipBlanksAndComments(source, offset);
  let at = start;
  for (const char of operator) {
    at = skipContinuations(source, at);
    if (source[at] !== char) return null;
    at += 1;
  }
  return { start, end: at };
}
