/**
 * Read access to the source with bash's line continuation: outside single quotes and
 * comments, a backslash-newline pair is removed before the lexer sees it (so
 * `ec\<newline>ho` is `echo`, `$\<newline>HOME` is `$HOME`, `2\<newline>>f` is `2>f`).
 */
export class SourceReader {
  readonly source: string;
  readonly length: number;

  constructor(source: string) {
    this.source = source;
    this.length = source.length;
  }

  /** The first offset at or after `offset` that is not the start of a continuation. */
  skipContinuations(offset: number): number {
    let position = offset;
    while (this.source[position] === "\\" && this.source[position + 1] === "\n") position += 2;
    return position;
  }

  /** The character at `offset` after continuations, and its offset. */
  peek(offset: number): { readonly char: string | undefined; readonly at: number } {
    const at = this.skipContinuations(offset);
    return { char: this.source[at], at };
  }

  /** The whole code point at `offset` (two code units for a surrogate pair). */
  codePointAt(offset: number): string {
    const codePoint = this.source.codePointAt(offset);
    return codePoint === undefined ? "" : String.fromCodePoint(codePoint);
  }
}
