/**
 * The safe engine's pathname expansion: an admitted word's pattern tokens written as a
 * bash pattern and expanded by `@agent-bridle/bash`'s `expandPathname` (the one globber
 * both engines run), through an access that judges every directory for `fs_read` before
 * it is listed, bounds the walk, and keeps a name that is not UTF-8 as its bytes so the
 * match is bash's under `LC_ALL=C` and such a match is refused, never mangled.
 */
import { lstat, readdir, stat } from "node:fs/promises";
import {
  decodeShellBytes,
  escapePattern,
  expandPathname,
  type GlobAccess,
} from "@agent-bridle/bash";

/**
 * One character of a pathname-expansion pattern after quote removal: a literal (quoted or
 * not) or an unquoted glob character as the parser marked it.
 */
export type PatternToken =
  | { readonly type: "char"; readonly value: string; readonly quoted: boolean }
  | { readonly type: "glob"; readonly value: "*" | "?" | "[" };

/** Raised for a bracket expression this engine does not interpret exactly like bash. */
export class UnsupportedPattern extends Error {}

/** Where the bracket expression opened by the `[` at `from` closes, or -1 (a literal `[`). */
function bracketEnd(tokens: readonly PatternToken[], from: number): number {
  let index = from + 1;
  const first = tokens[index];
  if (first?.type === "char" && !first.quoted && (first.value === "!" || first.value === "^"))
    index += 1;
  for (let start = index; index < tokens.length; index += 1) {
    const token = tokens[index] as PatternToken;
    if (token.value === "/") return -1;
    if (token.value === "]" && token.type === "char" && !token.quoted && index > start)
      return index;
  }
  return -1;
}

/** The bracket's members as bash takes them, or `UnsupportedPattern` where we would guess. */
function checkBracket(tokens: readonly PatternToken[], from: number, end: number): void {
  for (let index = from + 1; index < end; index += 1) {
    const token = tokens[index] as PatternToken;
    if (token.type === "char" && token.quoted)
      throw new UnsupportedPattern("a quoted character inside a bracket expression");
    if (token.value === "[" && /^[:=.]$/.test(tokens[index + 1]?.value ?? ""))
      throw new UnsupportedPattern("a character class, equivalence class or collating symbol");
    if ((token.value.codePointAt(0) ?? 0) > 0x7f)
      throw new UnsupportedPattern("a non-ASCII character inside a bracket expression");
  }
}

/** The tokens as a bash pattern: literals escaped, glob characters and brackets as written. */
export function patternText(tokens: readonly PatternToken[]): string {
  let text = "";
  for (let index = 0; index < tokens.length; index += 1) {
    const token = tokens[index] as PatternToken;
    if (token.type === "char") {
      text += escapePattern(token.value);
      continue;
    }
    if (token.value !== "[") {
      text += token.value;
      continue;
    }
    const end = bracketEnd(tokens, index);
    if (end < 0) {
      text += "\\[";
      continue;
    }
    checkBracket(tokens, index, end);
    text += `[${tokens
      .slice(index + 1, end + 1)
      .map((member) => member.value)
      .join("")}`;
    index = end;
  }
  return text;
}

export interface PatternRequest {
  readonly tokens: readonly PatternToken[];
  /** The absolute working directory relative patterns start from. */
  readonly cwd: string;
  /** Called with every directory before it is listed; a refusal stops the walk. */
  readonly beforeList: (directory: string) => Promise<boolean>;
  readonly maxMatches: number;
}

export type PatternResult =
  | { readonly kind: "matched"; readonly paths: readonly string[] }
  | { readonly kind: "refused"; readonly directory: string }
  | { readonly kind: "over-cap" }
  | { readonly kind: "undecodable" };

/** Ends the walk from inside the access (a refusal or the bound). */
class Stop extends Error {
  constructor(readonly result: PatternResult) {
    super(result.kind);
  }
}

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

function isUtf8(bytes: Uint8Array): boolean {
  try {
    strictUtf8.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** The file system as the walk may see it: listings judged first and counted. */
function judgedAccess(request: PatternRequest, undecodable: Set<string>): GlobAccess {
  let listings = 0;
  const entry = async (
    look: () => Promise<{ isDirectory(): boolean; isSymbolicLink(): boolean }>,
  ) => {
    try {
      return { ok: true as const, value: await look() };
    } catch {
      return { ok: false as const };
    }
  };
  return {
    async readdir(directory) {
      if (!(await request.beforeList(directory))) throw new Stop({ kind: "refused", directory });
      if (++listings > request.maxMatches * 4 + 1024) throw new Stop({ kind: "over-cap" });
      try {
        const names = await readdir(directory, { encoding: "buffer" });
        return {
          ok: true,
          value: names.map((name) => {
            const text = decodeShellBytes(name);
            if (!isUtf8(name)) undecodable.add(text);
            return text;
          }),
        };
      } catch {
        return { ok: false };
      }
    },
    stat: (path) => entry(() => stat(path)),
    lstat: (path) => entry(() => lstat(path)),
  };
}

function compareBytes(left: string, right: string): number {
  return Buffer.compare(Buffer.from(left, "utf8"), Buffer.from(right, "utf8"));
}

/**
 * Bash's pathname expansion without `globstar` (`**` is `*`), `dotglob`, `nullglob` or
 * `failglob`: hidden names only for a component starting with a `.`; a result whose
 * literal components do not exist is none; sorted bytewise (`LC_ALL=C`). Over
 * `maxMatches` is an error, never a cut; a match whose name is not UTF-8 is refused.
 */
export async function expandPatternTokens(request: PatternRequest): Promise<PatternResult> {
  const pattern = patternText(request.tokens);
  const undecodable = new Set<string>();
  let paths: string[];
  try {
    paths = await expandPathname(judgedAccess(request, undecodable), pattern, request.cwd);
  } catch (error) {
    if (error instanceof Stop) return error.result;
    throw error;
  }
  if (paths.some((path) => path.split("/").some((name) => undecodable.has(name))))
    return { kind: "undecodable" };
  if (paths.length > request.maxMatches) return { kind: "over-cap" };
  return { kind: "matched", paths: paths.sort(compareBytes) };
}
