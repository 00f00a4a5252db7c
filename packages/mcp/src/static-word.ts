/**
 * A shell word as the program will receive it, when that is known without running
 * anything: quotes and backslashes removed. `undefined` when the word expands (`$`, a
 * backquote, a glob or a tilde outside quotes), so its value is only known when it runs.
 */
export function staticWordValue(word: string): string | undefined {
  let value = "";
  let index = 0;
  while (index < word.length) {
    const char = word[index] as string;
    if (char === "'") {
      const end = word.indexOf("'", index + 1);
      if (end < 0) return undefined;
      value += word.slice(index + 1, end);
      index = end + 1;
    } else if (char === '"') {
      index += 1;
      while (index < word.length && word[index] !== '"') {
        const inner = word[index] as string;
        if (inner === "$" || inner === "`") return undefined;
        if (
          inner === "\\" &&
          index + 1 < word.length &&
          '$`"\\\n'.includes(word[index + 1] ?? "")
        ) {
          value += word[index + 1];
          index += 2;
        } else {
          value += inner;
          index += 1;
        }
      }
      if (index >= word.length) return undefined;
      index += 1;
    } else if (char === "\\") {
      if (index + 1 >= word.length) return undefined;
      value += word[index + 1];
      index += 2;
    } else if ("$`*?[~{".includes(char)) {
      return undefined;
    } else {
      value += char;
      index += 1;
    }
  }
  return value;
}

/** An argv for people: static words as their value (JSON-quoted), others as written. */
export function renderArgv(argv: readonly string[]): string {
  const words = argv.map((word) => {
    const value = staticWordValue(word);
    return value === undefined ? `${word} (expands when it runs)` : JSON.stringify(value);
  });
  return `[${words.join(", ")}]`;
}
