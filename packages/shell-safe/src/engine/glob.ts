import { lstat, readdir } from "node:fs/promises";
import { isAbsolute } from "node:path";

/**
 * One character of a pathname-expansion pattern after quote removal: a literal (quoted or
 * not: only its value matters once the word is known to be a pattern) or an unquoted
 * glob character as the parser marked it.
 */
export type PatternToken =
  | { readonly type: "char"; readonly value: string; readonly quoted: boolean }
  | { readonly type: "glob"; readonly value: "*" | "?" | "[" };

type Atom =
  | { readonly type: "byte"; readonly value: number }
  | { readonly type: "star" }
  | { readonly type: "any" }
  | { readonly type: "class"; readonly negate: boolean; readonly members: readonly ClassMember[] };

type ClassMember = { readonly lo: number; readonly hi: number };

/** A path component of the pattern: literal text, or atoms to match a directory entry against. */
type Segment =
  | { readonly kind: "literal"; readonly text: string }
  | { readonly kind: "pattern"; readonly atoms: readonly Atom[]; readonly leadingDot: boolean };

/** Raised for a bracket expression this engine does not interpret exactly like bash. */
export class UnsupportedPattern extends Error {}

const encoder = new TextEncoder();
const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

function bytesOf(value: string): number[] {
  return [...encoder.encode(value)];
}

/**
 * Parses a bracket expression starting after the `[` at `tokens[from]`; returns the atom
 * and the index after the closing `]`, or `undefined` when bash would take the `[` as a
 * literal (no closing `]` before the end of the component).
 */
function parseBracket(
  tokens: readonly PatternToken[],
  from: number,
): { atom: Atom; next: number } | undefined {
  let index = from + 1;
  let negate = false;
  const first = tokens[index];
  if (first?.type === "char" && !first.quoted && (first.value === "!" || first.value === "^")) {
    negate = true;
    index += 1;
  }
  const chars: string[] = [];
  let closed = false;
  for (; index < tokens.length; index += 1) {
    const token = tokens[index] as PatternToken;
    const value = token.value;
    if (value === "/") return undefined;
    if (value === "]" && token.type === "char" && !token.quoted && chars.length > 0) {
      closed = true;
      break;
    }
    if (token.type === "char" && token.quoted) {
      throw new UnsupportedPattern("a quoted character inside a bracket expression");
    }
    if (value === "[" && tokens[index + 1]?.value.match(/^[:=.]$/)) {
      throw new UnsupportedPattern("a character class, equivalence class or collating symbol");
    }
    chars.push(value);
  }
  if (!closed) return undefined;
  const members: ClassMember[] = [];
  for (let at = 0; at < chars.length; at += 1) {
    const lo = chars[at] as string;
    if ((lo.codePointAt(0) ?? 0) > 0x7f) {
      throw new UnsupportedPattern("a non-ASCII character inside a bracket expression");
    }
    const hi = chars[at + 2];
    if (chars[at + 1] === "-" && hi !== undefined) {
      if ((hi.codePointAt(0) ?? 0) > 0x7f) {
        throw new UnsupportedPattern("a non-ASCII character inside a bracket expression");
      }
      members.push({ lo: lo.charCodeAt(0), hi: hi.charCodeAt(0) });
      at += 2;
    } else members.push({ lo: lo.charCodeAt(0), hi: lo.charCodeAt(0) });
  }
  return { atom: { type: "class", negate, members }, next: index + 1 };
}

/** Splits the tokens into path components (a `/` always separates, quoted or not). */
export function compilePattern(tokens: readonly PatternToken[]): Segment[] {
  const segments: Segment[] = [];
  let atoms: Atom[] = [];
  let text = "";
  let globbing = false;
  const flush = () => {
    const leadingDot = atoms[0]?.type === "byte" && atoms[0].value === 0x2e;
    segments.push(globbing ? { kind: "pattern", atoms, leadingDot } : { kind: "literal", text });
    atoms = [];
    text = "";
    globbing = false;
  };
  for (let index = 0; index < tokens.length; ) {
    const token = tokens[index] as PatternToken;
    if (token.value === "/") {
      flush();
      index += 1;
      continue;
    }
    if (token.type === "glob") {
      if (token.value === "[") {
        const bracket = parseBracket(tokens, index);
        if (bracket !== undefined) {
          atoms.push(bracket.atom);
          text += "[";
          globbing = true;
          index = bracket.next;
          continue;
        }
        for (const byte of bytesOf("[")) atoms.push({ type: "byte", value: byte });
        text += "[";
        index += 1;
        continue;
      }
      atoms.push(token.value === "*" ? { type: "star" } : { type: "any" });
      text += token.value;
      globbing = true;
      index += 1;
      continue;
    }
    for (const byte of bytesOf(token.value)) atoms.push({ type: "byte", value: byte });
    text += token.value;
    index += 1;
  }
  flush();
  return segments;
}

function classMatches(atom: Extract<Atom, { type: "class" }>, byte: number): boolean {
  const inside = atom.members.some((member) => byte >= member.lo && byte <= member.hi);
  return inside !== atom.negate;
}

/** Bash's `strmatch` for one component under `LC_ALL=C` (bytes), iterative with star backtracking. */
export function matchSegment(atoms: readonly Atom[], name: Uint8Array): boolean {
  let a = 0;
  let n = 0;
  let starAt = -1;
  let starName = 0;
  while (n < name.length) {
    const atom = atoms[a];
    const byte = name[n] as number;
    if (atom?.type === "star") {
      starAt = a;
      starName = n;
      a += 1;
      continue;
    }
    if (
      atom !== undefined &&
      (atom.type === "any" ||
        (atom.type === "byte" && atom.value === byte) ||
        (atom.type === "class" && classMatches(atom, byte)))
    ) {
      a += 1;
      n += 1;
      continue;
    }
    if (starAt < 0) return false;
    a = starAt + 1;
    starName += 1;
    n = starName;
  }
  while (atoms[a]?.type === "star") a += 1;
  return a === atoms.length;
}

export interface GlobRequest {
  readonly tokens: readonly PatternToken[];
  /** The absolute working directory relative patterns start from. */
  readonly cwd: string;
  /** Called with every directory before it is listed; a refusal stops the walk. */
  readonly beforeList: (directory: string) => Promise<boolean>;
  readonly maxMatches: number;
}

export type GlobResult =
  | { readonly kind: "matched"; readonly paths: readonly string[] }
  | { readonly kind: "refused"; readonly directory: string }
  | { readonly kind: "over-cap" }
  | { readonly kind: "undecodable" };

function onDisk(cwd: string, prefix: string): string {
  if (prefix === "") return cwd;
  return isAbsolute(prefix) ? prefix : `${cwd}/${prefix}`;
}

function compareBytes(left: string, right: string): number {
  return Buffer.compare(Buffer.from(left, "utf8"), Buffer.from(right, "utf8"));
}

/**
 * Bash's pathname expansion without `globstar` (`**` is `*`), `dotglob`, `nullglob` or
 * `failglob`, with `globskipdots` (bash 5.2's default): components without glob
 * characters are taken as written; a hidden name matches only a component starting with
 * a literal `.`; a result whose last components are literal must exist (`lstat`); the
 * whole list is sorted bytewise (`LC_ALL=C`). Over `maxMatches` is an error, never a cut.
 */
export async function expandGlob(request: GlobRequest): Promise<GlobResult> {
  const segments = compilePattern(request.tokens);
  let candidates: { text: string; checked: boolean }[] = [{ text: "", checked: true }];
  let first = true;
  for (const segment of segments) {
    const next: { text: string; checked: boolean }[] = [];
    for (const candidate of candidates) {
      const joined = first ? "" : `${candidate.text}/`;
      if (segment.kind === "literal") {
        next.push({ text: first ? segment.text : joined + segment.text, checked: false });
        continue;
      }
      const directory = onDisk(
        request.cwd,
        first ? "" : candidate.text === "" ? "/" : candidate.text,
      );
      if (!(await request.beforeList(directory))) return { kind: "refused", directory };
      let names: Buffer[];
      try {
        names = await readdir(directory, { encoding: "buffer" });
      } catch {
        continue;
      }
      for (const name of names) {
        if (name[0] === 0x2e && !segment.leadingDot) continue;
        if (!matchSegment(segment.atoms, name)) continue;
        let decoded: string;
        try {
          decoded = strictUtf8.decode(name);
        } catch {
          return { kind: "undecodable" };
        }
        next.push({ text: joined + decoded, checked: true });
        if (next.length > request.maxMatches * 4 + 1024) return { kind: "over-cap" };
      }
    }
    candidates = next;
    first = false;
  }
  const paths: string[] = [];
  for (const candidate of candidates) {
    if (!candidate.checked) {
      const exists = await lstat(onDisk(request.cwd, candidate.text)).then(
        () => true,
        () => false,
      );
      if (!exists) continue;
    }
    paths.push(candidate.text);
    if (paths.length > request.maxMatches) return { kind: "over-cap" };
  }
  return { kind: "matched", paths: paths.sort(compareBytes) };
}
