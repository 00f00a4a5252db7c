/** Longest line text returned; a longer matching line is cut and ends with `…`. */
export const MAX_LINE_CHARS = 500;

export interface LineMatch {
  /** 1-based. */
  readonly line: number;
  readonly text: string;
}

/**
 * The lines of `text` that contain `query` as a literal substring (no pattern language,
 * so no query can make the search backtrack), at most `limit`; with `ignoreCase`, compared
 * after lower-casing both. Lines end at `\n`; a `\r` before it is not part of the line.
 */
export function matchingLines(
  text: string,
  query: string,
  ignoreCase: boolean,
  limit: number,
): LineMatch[] {
  const haystack = ignoreCase ? text.toLowerCase() : text;
  const needle = ignoreCase ? query.toLowerCase() : query;
  // Lower-casing can change lengths (rare characters), so lines are cut from the
  // compared text only when it kept the original length.
  const source = haystack.length === text.length ? text : haystack;
  const matches: LineMatch[] = [];
  let line = 1;
  let lineStart = 0;
  let from = 0;
  while (matches.length < limit) {
    const found = haystack.indexOf(needle, from);
    if (found < 0) break;
    for (let index = haystack.indexOf("\n", lineStart); index !== -1 && index < found; ) {
      line += 1;
      lineStart = index + 1;
      index = haystack.indexOf("\n", lineStart);
    }
    const newline = haystack.indexOf("\n", found);
    const lineEnd = newline < 0 ? haystack.length : newline;
    let lineText = source.slice(lineStart, lineEnd);
    if (lineText.endsWith("\r")) lineText = lineText.slice(0, -1);
    if (lineText.length > MAX_LINE_CHARS) lineText = `${lineText.slice(0, MAX_LINE_CHARS)}…`;
    matches.push({ line, text: lineText });
    if (newline < 0) break;
    from = newline + 1;
  }
  return matches;
}
