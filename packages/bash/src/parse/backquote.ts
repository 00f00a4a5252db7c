/** `` `…` `` command substitution: unescape the body, parse it as a script, map offsets back. */
import type { WordPart } from "./ast-word.js";
import type { ParserState } from "./parser-state.js";
import { remapOffsets } from "./remap-offsets.js";
import { SyntaxFailure, unmatched } from "./syntax-failure.js";

function isBackquoteEscape(char: string | undefined, inDouble: boolean): boolean {
  return char === "`" || char === "\\" || char === "$" || (inDouble && char === '"');
}

export function scanBackquote(state: ParserState, inDouble: boolean): WordPart {
  const start = state.pos;
  let body = "";
  const map: number[] = [];
  let index = start + 1;
  for (;;) {
    const char = state.source[index];
    if (char === undefined) throw unmatched("`", start);
    if (char === "`") break;
    const next = state.source[index + 1];
    if (char === "\\" && isBackquoteEscape(next, inDouble)) {
      // A node starting at the unescaped character starts at its backslash in the source.
      map.push(index);
      body += next;
      index += 2;
    } else {
      map.push(index);
      body += char;
      index += 1;
    }
  }
  map.push(index);
  state.pos = index + 1;
  state.enter();
  try {
    const script = state.parseSeparate(body, state.depth);
    remapOffsets(script, map);
    return { type: "CommandSubstitution", backquote: true, script, start, end: state.pos };
  } catch (error) {
    if (error instanceof SyntaxFailure) {
      throw new SyntaxFailure(error.message, map[error.offset] ?? index);
    }
    throw error;
  } finally {
    state.leave();
  }
}
