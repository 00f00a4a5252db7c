import { readFile } from "node:fs/promises";
import ts from "typescript";

/**
 * Parsed TypeScript files, each read and parsed once per run: the size and field rules
 * walk them, and the surface program is built on the same trees.
 */
export class SourceCache {
  readonly #files = new Map<string, ts.SourceFile>();

  /** Reads and parses `file` (absolute) unless it is already cached. */
  async load(file: string): Promise<ts.SourceFile> {
    const cached = this.#files.get(file);
    if (cached !== undefined) return cached;
    const parsed = parse(file, await readFile(file, "utf8"));
    this.#files.set(file, parsed);
    return parsed;
  }

  /** The cached tree of `file`, parsing it from `read()` when it is not cached yet. */
  get(file: string, read: () => string | undefined): ts.SourceFile | undefined {
    const cached = this.#files.get(file);
    if (cached !== undefined) return cached;
    const text = read();
    if (text === undefined) return undefined;
    const parsed = parse(file, text);
    this.#files.set(file, parsed);
    return parsed;
  }
}

function parse(file: string, text: string): ts.SourceFile {
  return ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
}
