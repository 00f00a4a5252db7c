/** Character classes of bash's lexer for the accepted subset (ASCII only). */

/** Characters that end an unquoted word (bash metacharacters, plus newline). */
export function isMetacharacter(char: string | undefined): boolean {
  switch (char) {
    case " ":
    case "\t":
    case "\n":
    case "|":
    case "&":
    case ";":
    case "<":
    case ">":
    case "(":
    case ")":
      return true;
    default:
      return false;
  }
}

export function isNameStart(char: string | undefined): boolean {
  if (char === undefined || char.length !== 1) return false;
  const code = char.charCodeAt(0);
  return (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a) || code === 0x5f;
}

export function isNameChar(char: string | undefined): boolean {
  if (isNameStart(char)) return true;
  if (char === undefined || char.length !== 1) return false;
  const code = char.charCodeAt(0);
  return code >= 0x30 && code <= 0x39;
}
