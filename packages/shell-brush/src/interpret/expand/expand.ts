/**
 * Word expansion in bash's order: tilde, parameter, arithmetic and command substitution
 * (left to right), IFS word splitting, pathname expansion, quote removal. Expansion is
 * collected as pieces (quoted or not, splittable or not) and then split into fields.
 * Parameter expansion lives in `parameter-expansion.ts`.
 */
import { homedir } from "node:os";
import type { Arithmetic, Word, WordPart } from "@agent-bridle/bash";
import {
  ArithmeticError,
  type ArithmeticScope,
  escapePattern,
  evaluateArithmetic,
  expandBraces,
  expandPathname,
  hasGlob,
  matchPattern,
} from "@agent-bridle/bash";
import { userHome } from "../io/user-home.js";
import { ExpansionError } from "../signals.js";
import type { ShellState } from "../state/state.js";
import { arithmeticScope } from "./arithmetic-scope.js";
import type { ExpansionHost } from "./expansion-host.js";
import { ParameterExpander, type WordExpander } from "./parameter-expansion.js";
import { isAtExpansion } from "./parameter-operations.js";
import type { Field, Piece } from "./pieces.js";

export { arithmeticScope } from "./arithmetic-scope.js";
export type { ExpansionHost } from "./expansion-host.js";
export type { Field } from "./pieces.js";

/** `GLOBIGNORE`: a match any of its patterns covers is dropped, as are `.` and `..`. */
function globIgnored(match: string, ignore: string): boolean {
  if (ignore === "") return false;
  const base = match.slice(match.lastIndexOf("/") + 1);
  if (base === "." || base === "..") return true;
  return ignore.split(":").some((pattern) => pattern !== "" && matchPattern(pattern, match));
}

/** The text of parts that are all literal (nothing to expand), else null. */
export function literalText(parts: readonly WordPart[]): string | null {
  let text = "";
  for (const part of parts) {
    if (part.type !== "Literal") return null;
    text += part.value;
  }
  return text;
}

export class Expander implements WordExpander {
  private readonly parameters = new ParameterExpander(this);

  constructor(readonly host: ExpansionHost) {}

  get state(): ShellState {
    return this.host.state;
  }

  ifs(): string {
    return this.state.get("IFS") ?? " \t\n";
  }

  /** Fields after splitting and pathname expansion (command words, `for` lists). */
  async fields(word: Word): Promise<string[]> {
    if (!word.flags.brace || !this.state.options.braceexpand) return this.fieldsOf(word);
    const out: string[] = [];
    for (const expanded of expandBraces(word)) out.push(...(await this.fieldsOf(expanded)));
    return out;
  }

  private async fieldsOf(word: Word): Promise<string[]> {
    const pieces: Piece[] = [];
    await this.parts(word.parts, false, pieces, true);
    const fields = this.split(pieces);
    const out: string[] = [];
    for (const field of fields) {
      if (field.glob && !this.state.options.noglob && hasGlob(field.pattern)) {
        const ignore = this.state.get("GLOBIGNORE") ?? "";
        const matches = (
          await expandPathname(this.host.access, field.pattern, this.state.cwd, {
            dotglob: this.state.shopt.has("dotglob") || ignore !== "",
            nocase: this.state.shopt.has("nocaseglob"),
            globstar: this.state.shopt.has("globstar"),
          })
        ).filter((match) => !globIgnored(match, ignore));
        if (matches.length > 0) {
          out.push(...matches);
          continue;
        }
        if (this.state.shopt.has("failglob"))
          throw new ExpansionError(`no match: ${field.text}`, "line");
        if (this.state.shopt.has("nullglob")) continue;
      }
      out.push(field.text);
    }
    return out;
  }

  /** Set while expanding an assignment value: `~` after `:` expands too. */
  private assignmentTilde = false;

  /** An assignment's value: one string, with tilde expansion after `=` and each `:`. */
  async assignment(word: Word): Promise<string> {
    this.assignmentTilde = true;
    try {
      const first = word.parts[0];
      const tilde = first?.type === "Literal" && first.value.startsWith("~");
      const pieces: Piece[] = [];
      await this.parts(word.parts, false, pieces, tilde);
      return this.join(pieces);
    } finally {
      this.assignmentTilde = false;
    }
  }

  /** `~`, `~user`, `~+`, `~-`: the directory, or undefined to leave the text alone. */
  async tildePrefix(user: string): Promise<string | undefined> {
    if (user === "") return this.state.get("HOME") ?? homedir();
    if (user === "+") return this.state.get("PWD");
    if (user === "-") return this.state.get("OLDPWD");
    return userHome(this.host.access, user);
  }

  /** `:~user` after the first `:` of an assignment value. */
  private async assignmentTildes(text: string): Promise<string> {
    let out = "";
    let last = 0;
    for (const match of text.matchAll(/:~([^/:]*)(?=\/|:|$)/g)) {
      const home = await this.tildePrefix(match[1] as string);
      out += text.slice(last, match.index) + (home === undefined ? match[0] : `:${home}`);
      last = match.index + match[0].length;
    }
    return out + text.slice(last);
  }

  /** One string, no splitting or globbing (assignments, `case` words, here-strings). */
  async string(word: Word): Promise<string> {
    const pieces: Piece[] = [];
    await this.parts(word.parts, false, pieces, word.flags.tilde);
    return this.join(pieces);
  }

  private join(pieces: readonly Piece[]): string {
    const ifs = this.ifs();
    return pieces
      .map((piece) => (piece.kind === "text" ? piece.text : piece.star ? ifs.slice(0, 1) : " "))
      .join("");
  }

  /** Text of word parts as if double-quoted (here-document bodies, arithmetic text). */
  async quotedString(parts: readonly WordPart[]): Promise<string> {
    const literal = literalText(parts);
    if (literal !== null) return literal;
    const pieces: Piece[] = [];
    await this.parts(parts, true, pieces, false);
    return this.join(pieces);
  }

  /** A pattern: quoted characters escaped, unquoted ones active. */
  async pattern(word: Word): Promise<string> {
    const pieces: Piece[] = [];
    await this.parts(word.parts, false, pieces, word.flags.tilde);
    return pieces
      .map((piece) =>
        piece.kind === "text" ? (piece.quoted ? escapePattern(piece.text) : piece.text) : " ",
      )
      .join("");
  }

  /** The right side of `=~`: quoted parts match literally. */
  async regex(word: Word): Promise<string> {
    const pieces: Piece[] = [];
    await this.parts(word.parts, false, pieces, word.flags.tilde);
    return pieces
      .map((piece) =>
        piece.kind === "text"
          ? piece.quoted
            ? piece.text.replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&")
            : piece.text
          : " ",
      )
      .join("");
  }

  async arithmetic(expression: Arithmetic): Promise<bigint> {
    const text = await this.quotedString(expression.parts);
    return this.evaluate(text);
  }

  /** The shell's variables as arithmetic sees them (made once: `evaluate` is hot). */
  private scope: ArithmeticScope | undefined;

  evaluate(text: string): bigint {
    try {
      this.scope ??= arithmeticScope(this.state);
      return evaluateArithmetic(text, this.scope);
    } catch (error) {
      if (error instanceof ArithmeticError)
        throw new ExpansionError(
          `${text.trimStart()}: ${error.message} (error token is "${error.token}")`,
          error.message === "unbound variable" ? "fatal" : "line",
        );
      throw error;
    }
  }

  private split(pieces: readonly Piece[]): Field[] {
    const ifs = this.ifs();
    const fields: Field[] = [];
    let current: Field = { text: "", pattern: "", glob: false };
    let hasContent = false;
    let afterWhitespace = false;
    const emit = (): void => {
      fields.push(current);
      current = { text: "", pattern: "", glob: false };
      hasContent = false;
    };
    const append = (char: string, quoted: boolean): void => {
      current.text += char;
      if (quoted) current.pattern += escapePattern(char);
      else {
        current.pattern += char;
        if (char === "*" || char === "?" || char === "[") current.glob = true;
        if (char === "(" && /[!+@]$/.test(current.pattern.slice(0, -1))) current.glob = true;
      }
      hasContent = true;
      afterWhitespace = false;
    };
    for (const piece of pieces) {
      if (piece.kind === "break") {
        if (piece.hard || hasContent) emit();
        afterWhitespace = false;
        continue;
      }
      if (piece.quoted && piece.text === "") {
        hasContent = true;
        continue;
      }
      if (!piece.split || ifs === "") {
        for (const char of piece.text) append(char, piece.quoted);
        continue;
      }
      for (const char of piece.text) {
        if (!ifs.includes(char)) {
          append(char, false);
          continue;
        }
        if (char === " " || char === "\t" || char === "\n") {
          if (hasContent) {
            emit();
            afterWhitespace = true;
          }
        } else {
          if (hasContent || !afterWhitespace) emit();
          afterWhitespace = false;
        }
      }
    }
    if (hasContent) emit();
    return fields;
  }

  async parts(
    parts: readonly WordPart[],
    quoted: boolean,
    out: Piece[],
    tilde: boolean,
    fromExpansion = false,
  ): Promise<void> {
    for (const [index, part] of parts.entries()) {
      switch (part.type) {
        case "Literal": {
          let text = part.value;
          if (index === 0 && tilde && !quoted && text.startsWith("~")) {
            const slash = text.indexOf("/");
            const prefix = slash < 0 ? text : text.slice(0, slash);
            const onlyPart = slash >= 0 || parts.length === 1;
            const home = onlyPart ? await this.tildePrefix(prefix.slice(1)) : undefined;
            if (home !== undefined) {
              out.push({ kind: "text", text: home, quoted: true, split: false });
              text = slash < 0 ? "" : text.slice(slash);
            }
          }
          if (this.assignmentTilde && !quoted && text.includes(":~")) {
            text = await this.assignmentTildes(text);
          }
          out.push({ kind: "text", text, quoted, split: fromExpansion && !quoted });
          break;
        }
        case "Escaped":
          out.push({ kind: "text", text: part.value, quoted: true, split: false });
          break;
        case "SingleQuoted":
        case "AnsiCQuoted":
          out.push({ kind: "text", text: part.value, quoted: true, split: false });
          break;
        case "DoubleQuoted":
        case "LocaleQuoted":
          if (!part.parts.some((inner) => isAtExpansion(inner)))
            out.push({ kind: "text", text: "", quoted: true, split: false });
          await this.parts(part.parts, true, out, false);
          break;
        case "ParameterExpansion":
          await this.parameters.parameter(part, quoted, out);
          break;
        case "CommandSubstitution": {
          const text = (await this.host.substitute(part.script)).replace(/\n+$/, "");
          out.push({ kind: "text", text, quoted, split: !quoted });
          break;
        }
        case "ArithmeticExpansion": {
          const value = await this.arithmetic(part.expression);
          out.push({ kind: "text", text: String(value), quoted, split: !quoted });
          break;
        }
        case "ProcessSubstitution": {
          const path = await this.host.processSubstitute(part.script, part.direction);
          out.push({ kind: "text", text: path, quoted: true, split: false });
          break;
        }
        case "ExtGlob": {
          const inner = await this.patternOfParts(part.parts);
          out.push({
            kind: "text",
            text: `${part.operator}(${inner})`,
            quoted: false,
            split: false,
          });
          break;
        }
      }
    }
  }

  private async patternOfParts(parts: readonly WordPart[]): Promise<string> {
    const pieces: Piece[] = [];
    await this.parts(parts, false, pieces, false);
    return pieces
      .map((piece) =>
        piece.kind === "text" ? (piece.quoted ? escapePattern(piece.text) : piece.text) : " ",
      )
      .join("");
  }

  /** Values of a parameter: null when unset; `multi` for `@`/`*` forms. */
}
