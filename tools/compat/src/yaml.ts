/**
 * A minimal YAML reader for the subset the bash-compat corpus uses (PyYAML-style dumps):
 * block mappings, block sequences (also indentless under a key), and plain, single-quoted
 * and double-quoted scalars that may span lines (folded). No anchors, tags, flow
 * collections or block scalars: those throw, so a corpus change cannot be misread silently.
 */

export type YamlValue =
  | string
  | number
  | boolean
  | null
  | YamlValue[]
  | { [key: string]: YamlValue };

const DOUBLE_ESCAPES: Readonly<Record<string, string>> = {
  "0": "\0",
  a: "\x07",
  b: "\b",
  t: "\t",
  "\t": "\t",
  n: "\n",
  v: "\v",
  f: "\f",
  r: "\r",
  e: "\x1b",
  " ": " ",
  '"': '"',
  "/": "/",
  "\\": "\\",
  N: "\u0085",
  _: "\u00a0",
  L: "\u2028",
  P: "\u2029",
};

class Reader {
  readonly text: string;
  pos = 0;

  constructor(text: string) {
    this.text = text;
  }

  fail(message: string): never {
    const line = this.text.slice(0, this.pos).split("\n").length;
    throw new Error(`yaml: ${message} at line ${line}`);
  }

  column(offset = this.pos): number {
    return offset - (this.text.lastIndexOf("\n", offset - 1) + 1);
  }

  /** Move to the first non-blank, non-comment line; its indentation, or -1 at the end. */
  nextLine(): number {
    for (;;) {
      let index = this.pos;
      while (this.text[index] === " ") index += 1;
      const char = this.text[index];
      if (char === undefined) {
        this.pos = index;
        return -1;
      }
      if (char === "\n" || char === "#" || char === "\r") {
        const newline = this.text.indexOf("\n", index);
        this.pos = newline < 0 ? this.text.length : newline + 1;
        continue;
      }
      this.pos = index;
      return this.column();
    }
  }

  isSequenceItem(): boolean {
    return (
      this.text[this.pos] === "-" &&
      (this.text[this.pos + 1] === " " || this.text[this.pos + 1] === "\n")
    );
  }

  node(indent: number): YamlValue {
    return this.isSequenceItem() ? this.sequence(indent) : this.mapping(indent);
  }

  sequence(indent: number): YamlValue[] {
    const items: YamlValue[] = [];
    while (this.isSequenceItem()) {
      this.pos += 1;
      while (this.text[this.pos] === " ") this.pos += 1;
      if (this.text[this.pos] === "\n") {
        const inner = this.nextLine();
        items.push(inner > indent ? this.node(inner) : null);
      } else if (this.looksLikeKey()) {
        items.push(this.mapping(this.column()));
      } else {
        items.push(this.scalar(indent));
      }
      if (this.nextLine() !== indent) break;
    }
    return items;
  }

  looksLikeKey(): boolean {
    const end = this.text.indexOf("\n", this.pos);
    const line = this.text.slice(this.pos, end < 0 ? undefined : end);
    if (line.startsWith("'") || line.startsWith('"')) return false;
    const colon = line.indexOf(":");
    return colon > 0 && (line[colon + 1] === " " || line[colon + 1] === undefined);
  }

  mapping(indent: number): { [key: string]: YamlValue } {
    const result: { [key: string]: YamlValue } = {};
    for (;;) {
      if (!this.looksLikeKey()) this.fail("expected a mapping key");
      const colon = this.text.indexOf(":", this.pos);
      const key = this.text.slice(this.pos, colon).trim();
      this.pos = colon + 1;
      while (this.text[this.pos] === " ") this.pos += 1;
      if (this.text[this.pos] === "\n" || this.text[this.pos] === undefined) {
        const inner = this.nextLine();
        if (inner > indent) result[key] = this.node(inner);
        else if (inner === indent && this.isSequenceItem()) result[key] = this.sequence(indent);
        else result[key] = null;
      } else {
        result[key] = this.scalar(indent);
      }
      if (this.nextLine() !== indent || this.isSequenceItem()) return result;
    }
  }

  scalar(indent: number): YamlValue {
    const char = this.text[this.pos];
    if (char === "'" || char === '"') return this.quoted(char);
    if (
      char === "|" ||
      char === ">" ||
      char === "[" ||
      char === "{" ||
      char === "&" ||
      char === "*" ||
      char === "!"
    ) {
      this.fail(`unsupported syntax '${char}'`);
    }
    return this.plain(indent);
  }

  quoted(quote: "'" | '"'): string {
    const folder = new Folder();
    this.pos += 1;
    for (;;) {
      const char = this.text[this.pos];
      if (char === undefined) this.fail("unterminated quoted scalar");
      if (char === quote) {
        if (quote === "'" && this.text[this.pos + 1] === "'") {
          folder.escaped("'");
          this.pos += 2;
          continue;
        }
        this.pos += 1;
        return folder.result();
      }
      if (char === "\n") {
        this.pos += 1;
        this.pos = folder.lineBreak(this.text, this.pos);
      } else if (quote === '"' && char === "\\") {
        this.pos = this.escape(folder);
      } else {
        folder.raw(char);
        this.pos += 1;
      }
    }
  }

  escape(folder: Folder): number {
    const next = this.text[this.pos + 1];
    if (next === "\n") {
      let index = this.pos + 2;
      while (this.text[index] === " " || this.text[index] === "\t") index += 1;
      return index;
    }
    const simple = next === undefined ? undefined : DOUBLE_ESCAPES[next];
    if (simple !== undefined) {
      folder.escaped(simple);
      return this.pos + 2;
    }
    const width = next === "x" ? 2 : next === "u" ? 4 : next === "U" ? 8 : 0;
    if (width === 0) this.fail(`unknown escape \\${next ?? ""}`);
    const hex = this.text.slice(this.pos + 2, this.pos + 2 + width);
    folder.escaped(String.fromCodePoint(Number.parseInt(hex, 16)));
    return this.pos + 2 + width;
  }

  plain(indent: number): YamlValue {
    const folder = new Folder();
    for (;;) {
      const end = this.text.indexOf("\n", this.pos);
      let line = this.text.slice(this.pos, end < 0 ? undefined : end);
      const comment = line.indexOf(" #");
      if (comment >= 0) line = line.slice(0, comment);
      for (const char of line.trimEnd()) folder.raw(char);
      this.pos = end < 0 ? this.text.length : end + 1;
      const save = this.pos;
      const next = this.nextLine();
      if (next <= indent || this.isSequenceItem() || this.looksLikeKey()) {
        this.pos = save;
        break;
      }
      folder.raw(" ");
    }
    return typedPlain(folder.result());
  }
}

/** YAML line folding: a single break becomes a space, each further empty line a newline. */
class Folder {
  private text = "";
  private trimFrom = 0;

  raw(char: string): void {
    this.text += char;
    if (char !== " " && char !== "\t") this.trimFrom = this.text.length;
  }

  escaped(value: string): void {
    this.text += value;
    this.trimFrom = this.text.length;
  }

  lineBreak(source: string, from: number): number {
    this.text = this.text.slice(0, this.trimFrom);
    let index = from;
    let breaks = 0;
    for (;;) {
      while (source[index] === " " || source[index] === "\t") index += 1;
      if (source[index] !== "\n") break;
      breaks += 1;
      index += 1;
    }
    this.text += breaks > 0 ? "\n".repeat(breaks) : " ";
    this.trimFrom = this.text.length;
    return index;
  }

  result(): string {
    return this.text;
  }
}

function typedPlain(text: string): YamlValue {
  if (text === "true") return true;
  if (text === "false") return false;
  if (text === "null" || text === "~" || text === "") return null;
  if (/^-?\d+(\.\d+)?$/.test(text)) return Number(text);
  return text;
}

/** Parse one YAML document of the supported subset. */
export function parseYaml(text: string): YamlValue {
  const reader = new Reader(text.replace(/\r\n/g, "\n"));
  const indent = reader.nextLine();
  if (indent < 0) return null;
  const value = reader.node(indent);
  if (reader.nextLine() >= 0) reader.fail("unexpected content");
  return value;
}
