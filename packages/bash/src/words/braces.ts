/**
 * Brace expansion (`a{b,c}d`, `{1..10..2}`, `{a..e}`), the first expansion: it works on
 * the word's unquoted literal text and yields new words; quoted parts and expansions
 * are carried along untouched.
 */
import type { Word, WordPart } from "../parse/ast-word.js";

type Item = { readonly char: string } | { readonly part: WordPart };

function toItems(word: Word): Item[] {
  const items: Item[] = [];
  for (const part of word.parts) {
    if (part.type === "Literal") for (const char of part.value) items.push({ char });
    else items.push({ part });
  }
  return items;
}

function toWord(items: readonly Item[], template: Word): Word {
  const parts: WordPart[] = [];
  let text = "";
  const flush = (): void => {
    if (text === "") return;
    parts.push({ type: "Literal", value: text, start: template.start, end: template.end });
    text = "";
  };
  for (const item of items) {
    if ("char" in item) text += item.char;
    else {
      flush();
      parts.push(item.part);
    }
  }
  flush();
  const tilde = parts[0]?.type === "Literal" && parts[0].value.startsWith("~");
  return { ...template, parts, flags: { ...template.flags, brace: false, tilde } };
}

const isChar = (item: Item | undefined, char: string): boolean =>
  item !== undefined && "char" in item && item.char === char;

function sequence(text: string): string[] | null {
  const numeric = /^([-+]?\d+)\.\.([-+]?\d+)(?:\.\.([-+]?\d+))?$/.exec(text);
  if (numeric !== null) {
    const [, startText = "", endText = "", stepText] = numeric;
    const start = Number(startText);
    const end = Number(endText);
    let step = Math.abs(Number(stepText ?? 1)) || 1;
    if (start > end) step = -step;
    const width =
      /^[-+]?0\d/.test(startText) || /^[-+]?0\d/.test(endText)
        ? Math.max(startText.replace(/^[-+]/, "").length, endText.replace(/^[-+]/, "").length)
        : 0;
    const values: string[] = [];
    for (let value = start; step > 0 ? value <= end : value >= end; value += step) {
      const digits = String(Math.abs(value)).padStart(width, "0");
      values.push(value < 0 ? `-${digits}` : digits);
      if (values.length > 100_000) break;
    }
    return values;
  }
  const letters = /^([A-Za-z])\.\.([A-Za-z])(?:\.\.([-+]?\d+))?$/.exec(text);
  if (letters !== null) {
    const start = (letters[1] as string).charCodeAt(0);
    const end = (letters[2] as string).charCodeAt(0);
    let step = Math.abs(Number(letters[3] ?? 1)) || 1;
    if (start > end) step = -step;
    const values: string[] = [];
    for (let code = start; step > 0 ? code <= end : code >= end; code += step)
      values.push(String.fromCharCode(code));
    return values;
  }
  return null;
}

function expandItems(items: readonly Item[]): Item[][] {
  for (let open = 0; open < items.length; open += 1) {
    if (!isChar(items[open], "{")) continue;
    let depth = 0;
    const commas: number[] = [];
    let close = -1;
    for (let index = open + 1; index < items.length; index += 1) {
      const item = items[index];
      if (isChar(item, "{")) depth += 1;
      else if (isChar(item, "}")) {
        if (depth === 0) {
          close = index;
          break;
        }
        depth -= 1;
      } else if (isChar(item, ",") && depth === 0) commas.push(index);
    }
    if (close < 0) return [[...items]];
    const prefix = items.slice(0, open);
    const suffix = items.slice(close + 1);
    if (commas.length > 0) {
      const bounds = [open, ...commas, close];
      const results: Item[][] = [];
      for (let index = 0; index + 1 < bounds.length; index += 1) {
        const alternative = items.slice((bounds[index] as number) + 1, bounds[index + 1]);
        for (const expanded of expandItems([...prefix, ...alternative, ...suffix]))
          results.push(expanded);
      }
      return results;
    }
    const inner = items.slice(open + 1, close);
    if (inner.every((item) => "char" in item)) {
      const values = sequence(inner.map((item) => ("char" in item ? item.char : "")).join(""));
      if (values !== null) {
        const results: Item[][] = [];
        for (const value of values) {
          const middle = [...value].map((char) => ({ char }));
          for (const expanded of expandItems([...prefix, ...middle, ...suffix]))
            results.push(expanded);
        }
        return results;
      }
    }
  }
  return [[...items]];
}

/** The words a brace-expansion candidate becomes (the word itself when nothing expands). */
export function expandBraces(word: Word): Word[] {
  if (!word.flags.brace) return [word];
  const items = toItems(word);
  const expanded = expandItems(items);
  if (expanded.length === 1 && expanded[0]?.length === items.length) return [word];
  return expanded.map((result) => toWord(result, word));
}
