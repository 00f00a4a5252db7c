/**
 * Word flags from a word's "shape": its unquoted literal characters, with every quoted
 * or expanded character replaced by NUL so that only unquoted syntax is seen.
 */
import type { WordFlags } from "./ast-word.js";

/** An unquoted `{` with a later unquoted `,` or `..` before a matching `}`. */
export function isBraceCandidate(shape: string): boolean {
  for (let open = shape.indexOf("{"); open >= 0; open = shape.indexOf("{", open + 1)) {
    let depth = 0;
    let separated = false;
    for (let index = open + 1; index < shape.length; index += 1) {
      const char = shape[index];
      if (char === "{") depth += 1;
      else if (char === "}") {
        if (depth === 0) {
          if (separated) return true;
          break;
        }
        depth -= 1;
      } else if (depth === 0 && (char === "," || (char === "." && shape[index + 1] === "."))) {
        separated = true;
      }
    }
  }
  return false;
}

export function computeWordFlags(shape: string, quoted: boolean, extglob: boolean): WordFlags {
  let glob = extglob;
  for (let index = 0; index < shape.length && !glob; index += 1) {
    const char = shape[index];
    glob = char === "*" || char === "?" || char === "[";
  }
  return { glob, brace: isBraceCandidate(shape), tilde: shape[0] === "~", quoted };
}
