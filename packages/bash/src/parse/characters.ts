/** Character classes of the bash grammar (hand-written tests; no regular expressions). */

export function isBlank(char: string | undefined): boolean {
  return char === " " || char === "\t";
}

/** bash's metacharacters: they end an unquoted word. */
export function isMetacharacter(char: string | undefined): boolean {
  return (
    char === " " ||
    char === "\t" ||
    char === "\n" ||
    char === "|" ||
    char === "&" ||
    char === ";" ||
    char === "(" ||
    char === ")" ||
    char === "<" ||
    char === ">"
  );
}

export function isDigit(char: string | undefined): boolean {
  return char !== undefined && char >= "0" && char <= "9";
}

export function isNameStart(char: string | undefined): boolean {
  return (
    char !== undefined &&
    ((char >= "a" && char <= "z") || (char >= "A" && char <= "Z") || char === "_")
  );
}

export function isNameChar(char: string | undefined): boolean {
  return isNameStart(char) || isDigit(char);
}

/** A shell variable name: `[A-Za-z_][A-Za-z0-9_]*`. */
export function isName(text: string): boolean {
  if (!isNameStart(text[0])) return false;
  for (let index = 1; index < text.length; index += 1) {
    if (!isNameChar(text[index])) return false;
  }
  return true;
}

/** One-character special parameters: `$@ $* $# $? $- $$ $! $0`. */
export function isSpecialParameter(char: string | undefined): boolean {
  return (
    char === "@" ||
    char === "*" ||
    char === "#" ||
    char === "?" ||
    char === "-" ||
    char === "$" ||
    char === "!" ||
    char === "0"
  );
}

export function isHexDigit(char: string | undefined): boolean {
  return (
    isDigit(char) ||
    (char !== undefined && ((char >= "a" && char <= "f") || (char >= "A" && char <= "F")))
  );
}
