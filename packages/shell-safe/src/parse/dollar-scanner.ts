import type { VariablePart } from "./ast.js";
import { isMetacharacter, isNameChar, isNameStart } from "./characters.js";
import { LABELS } from "./labels.js";
import { dynamicConstruct, malformed, unsupportedConstruct } from "./refusal.js";
import type { SourceReader } from "./source-reader.js";

/**
 * Scans what follows an unquoted or double-quoted `$` at `start`. Only `$NAME` and
 * `${NAME}` are accepted; `$(`, `$((` are dynamic; everything else (`$1`, `$?`, `$'…'`,
 * `$"…"`, a lone `$`, `${X:-d}`, `${#X}`, `${!X}`, `${X@P}`) is refused.
 */
export function scanDollar(reader: SourceReader, start: number, quoted: boolean): VariablePart {
  const { char, at } = reader.peek(start + 1);
  if (char === "(") {
    const inner = reader.peek(at + 1);
    if (inner.char === "(") throw dynamicConstruct(LABELS.arithmeticExpansion, start, inner.at + 1);
    throw dynamicConstruct(LABELS.commandSubstitution, start, at + 1);
  }
  if (char === "{") return scanBraced(reader, start, at + 1, quoted);
  if (isNameStart(char)) return scanPlainName(reader, start, at, quoted);
  const ends = char === undefined || isMetacharacter(char) || (quoted && char === '"');
  throw unsupportedConstruct(LABELS.bareDollar, start, ends ? start + 1 : at + 1);
}

function scanPlainName(
  reader: SourceReader,
  start: number,
  first: number,
  quoted: boolean,
): VariablePart {
  let name = "";
  let end = first;
  let { char, at } = { char: reader.source[first], at: first };
  while (isNameChar(char)) {
    name += char;
    end = at + 1;
    ({ char, at } = reader.peek(at + 1));
  }
  if (char !== undefined && char.charCodeAt(0) >= 0x80) {
    throw unsupportedConstruct(
      LABELS.variableName,
      start,
      at + 1,
      "a name followed directly by a non-ASCII character; use braces around the name",
    );
  }
  return { type: "variable", name, braced: false, quoted, start, end };
}

function scanBraced(
  reader: SourceReader,
  start: number,
  contentStart: number,
  quoted: boolean,
): VariablePart {
  let name = "";
  let { char, at } = reader.peek(contentStart);
  while (char !== "}") {
    if (char === undefined) throw malformed("unterminated `${`", start, reader.length);
    const valid = name === "" ? isNameStart(char) : isNameChar(char);
    if (!valid) throw unsupportedConstruct(LABELS.variableName, start, at + 1);
    name += char;
    ({ char, at } = reader.peek(at + 1));
  }
  if (name === "") throw unsupportedConstruct(LABELS.variableName, start, at + 1);
  return { type: "variable", name, braced: true, quoted, start, end: at + 1 };
}
