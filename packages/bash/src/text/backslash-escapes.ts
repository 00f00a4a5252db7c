/** The single-character backslash escapes bash decodes (`echo -e`, `printf`'s format). */
export const BACKSLASH_ESCAPES: Readonly<Record<string, string>> = Object.freeze({
  a: "\x07",
  b: "\b",
  e: "\x1b",
  E: "\x1b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
  v: "\v",
  "\\": "\\",
});

/** Those of `$'…'` and `${x@E}`: the same, and the quotes and `?` stand for themselves. */
export const ANSI_C_ESCAPES: Readonly<Record<string, string>> = Object.freeze({
  ...BACKSLASH_ESCAPES,
  "'": "'",
  '"': '"',
  "?": "?",
});
