// Scanners for the literal forms whose contents must not be read as code.
// Each takes the text and the offset of the opening delimiter.

export interface Scanned {
  readonly value: string;
  /** Offset just past the literal. */
  readonly end: number;
}

/** A '…' or "…" string; an unterminated string ends at the line break. */
export function scanQuoted(text: string, start: number): Scanned {
  const quote = text[start];
  let value = "";
  let position = start + 1;
  while (position < text.length) {
    const char = text[position];
    if (char === quote) return { value, end: position + 1 };
    if (char === "\n") break;
    if (char === "\\") {
      const escaped = text[position + 1] ?? "";
      if (escaped !== "\n") value += escaped;
      position += 2;
      continue;
    }
    value += char;
    position += 1;
  }
  return { value, end: position };
}

export interface ScannedTemplate extends Scanned {
  /** True when the chunk ended at `${` (code follows), false at the closing backtick. */
  readonly opensSubstitution: boolean;
}

/** One template chunk, from just after "`" or "}" up to and including "`" or "${". */
export function scanTemplateChunk(text: string, start: number): ScannedTemplate {
  let value = "";
  let position = start;
  while (position < text.length) {
    const char = text[position];
    if (char === "`") return { value, end: position + 1, opensSubstitution: false };
    if (char === "$" && text[position + 1] === "{") {
      return { value, end: position + 2, opensSubstitution: true };
    }
    if (char === "\\") {
      value += text[position + 1] ?? "";
      position += 2;
      continue;
    }
    value += char;
    position += 1;
  }
  return { value, end: position, opensSubstitution: false };
}

/** A /regex/flags literal, or undefined when no closing slash comes before the line break. */
export function scanRegex(text: string, start: number): Scanned | undefined {
  let position = start + 1;
  let inClass = false;
  while (position < text.length) {
    const char = text[position];
    if (char === "\n" || char === "\r") return undefined;
    if (char === "\\") {
      position += 2;
      continue;
    }
    if (char === "[") inClass = true;
    else if (char === "]") inClass = false;
    else if (char === "/" && !inClass) {
      let end = position + 1;
      while (end < text.length && /[A-Za-z]/.test(text[end] ?? "")) end += 1;
      return { value: text.slice(start, end), end };
    }
    position += 1;
  }
  return undefined;
}
