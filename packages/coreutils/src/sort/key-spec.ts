import { type KeyField, newKey } from "./key-field.js";

/** A failure is GNU's whole diagnostic (without the program name). */
export type KeyParse =
  | { readonly ok: true; readonly key: KeyField }
  | { readonly ok: false; readonly message: string };

type Blanks = "start" | "end" | "both";

/** GNU `set_ordering`: consume ordering letters; returns the index of the first other. */
export function setOrdering(
  text: string,
  from: number,
  key: KeyField,
  blanks: Blanks,
): { end: number; unsupported?: string } {
  let at = from;
  for (; at < text.length; at += 1) {
    const letter = text[at] as string;
    if (letter === "b") {
      if (blanks !== "end") key.skipStartBlanks = true;
      if (blanks !== "start") key.skipEndBlanks = true;
    } else if (letter === "f") key.foldCase = true;
    else if (letter === "h") key.humanNumeric = true;
    else if (letter === "n") key.numeric = true;
    else if (letter === "r") key.reverse = true;
    else if (letter === "V") key.version = true;
    else if ("dgiMR".includes(letter)) return { end: at, unsupported: letter };
    else break;
  }
  return { end: at };
}

function readCount(text: string, from: number): { value: number; end: number } | undefined {
  const match = /^[0-9]+/.exec(text.slice(from));
  if (match === null) return undefined;
  const value = Number(match[0]);
  return {
    value: Number.isSafeInteger(value) ? value : Number.MAX_SAFE_INTEGER,
    end: from + match[0].length,
  };
}

const quote = (text: string) => `'${text}'`;

/** GNU's `-k POS1[,POS2]` parser, with its diagnostics. */
export function parseKeySpec(spec: string): KeyParse | { ok: "unsupported"; letter: string } {
  const key = newKey();
  const bad = (why: string): KeyParse => ({
    ok: false,
    message: `${why}: invalid field specification ${quote(spec)}`,
  });
  const badCount = (why: string, at: number): KeyParse => ({
    ok: false,
    message: `${why}: invalid count at start of ${quote(spec.slice(at))}`,
  });
  const start = readCount(spec, 0);
  if (start === undefined) return badCount("invalid number at field start", 0);
  if (start.value === 0) return bad("field number is zero");
  key.startField = start.value - 1;
  let at = start.end;
  if (spec[at] === ".") {
    const char = readCount(spec, at + 1);
    if (char === undefined) return badCount("invalid number after '.'", at + 1);
    if (char.value === 0) return bad("character offset is zero");
    key.startChar = char.value - 1;
    at = char.end;
  }
  if (key.startField === 0 && key.startChar === 0) key.startField = -1;
  const startOrdering = setOrdering(spec, at, key, "start");
  if (startOrdering.unsupported !== undefined)
    return { ok: "unsupported", letter: startOrdering.unsupported };
  at = startOrdering.end;
  if (spec[at] === ",") {
    const end = readCount(spec, at + 1);
    if (end === undefined) return badCount("invalid number after ','", at + 1);
    if (end.value === 0) return bad("field number is zero");
    key.endField = end.value - 1;
    at = end.end;
    if (spec[at] === ".") {
      const char = readCount(spec, at + 1);
      if (char === undefined) return badCount("invalid number after '.'", at + 1);
      key.endChar = char.value;
      at = char.end;
    }
    const endOrdering = setOrdering(spec, at, key, "end");
    if (endOrdering.unsupported !== undefined)
      return { ok: "unsupported", letter: endOrdering.unsupported };
    at = endOrdering.end;
  }
  if (at < spec.length) return bad("stray character in field spec");
  return { ok: true, key };
}
