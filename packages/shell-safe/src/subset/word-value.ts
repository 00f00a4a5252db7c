import type { Word } from "./ast.js";

/**
 * The word's value after quote removal when it holds no variable and no tilde
 * (glob characters count as their literal text), else `null`. For a glob word this is
 * the literal bash passes when nothing matches.
 */
export function literalValue(word: Word): string | null {
  let value = "";
  for (const part of word.parts) {
    switch (part.type) {
      case "literal":
      case "escaped":
      case "single-quoted":
      case "glob":
        value += part.value;
        break;
      case "double-quoted":
        for (const inner of part.parts) {
          if (inner.type === "variable") return null;
          value += inner.value;
        }
        break;
      default:
        return null;
    }
  }
  return value;
}

/** The word's text when it has no quoting, escapes, variables or tilde, else `null`. */
export function unquotedText(word: Word): string | null {
  let value = "";
  for (const part of word.parts) {
    if (part.type !== "literal" && part.type !== "glob") return null;
    value += part.value;
  }
  return value;
}

/** Whether an unquoted glob character makes the word a pathname-expansion pattern. */
export function isGlobWord(word: Word): boolean {
  return word.parts.some((part) => part.type === "glob");
}

/** Every variable name the word references, quoted or not, in source order. */
export function wordVariables(word: Word): string[] {
  const names: string[] = [];
  for (const part of word.parts) {
    if (part.type === "variable") names.push(part.name);
    if (part.type === "double-quoted") {
      for (const inner of part.parts) if (inner.type === "variable") names.push(inner.name);
    }
  }
  return names;
}

/** Whether any part of the word is quoted (so it never expands to zero words). */
export function hasQuoting(word: Word): boolean {
  return word.parts.some(
    (part) =>
      part.type === "escaped" || part.type === "single-quoted" || part.type === "double-quoted",
  );
}
