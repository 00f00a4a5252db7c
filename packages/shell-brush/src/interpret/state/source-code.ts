/** The text being run and where it comes from (`LINENO`, `BASH_SOURCE`). */

/** Source text being run: its line starts, and the line its first line counts as. */
export interface Code {
  readonly text: string;
  readonly starts: readonly number[];
  /** Added to line numbers (`eval` text counts from the line of the `eval`). */
  readonly base: number;
}

/** Where code comes from: its file's name (`BASH_SOURCE`) and text (for `LINENO`). */
export interface SourceOrigin {
  readonly source: string;
  readonly code: Code;
}

/** Where each line of `source` starts. */
export function lineStarts(source: string): number[] {
  const starts = [0];
  for (let index = source.indexOf("\n"); index >= 0; index = source.indexOf("\n", index + 1))
    starts.push(index + 1);
  return starts;
}
