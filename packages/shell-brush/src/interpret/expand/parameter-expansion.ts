/**
 * Parameter expansion (`$name`, `${name…}` with every operator, `$@`/`$*`, the special
 * parameters), on behalf of an `Expander`.
 */

import type { Arithmetic, ParameterExpansion, Word, WordPart } from "@agent-bridle/bash";
import { byteLength, matchPattern, sliceBytes } from "@agent-bridle/bash";
import { ExpansionError } from "../signals.js";
import { arrayKeys, arrayValues, type ShellState } from "../state/state.js";
import { attributeFlags, declareLine } from "../state/variable-text.js";
import type { ExpansionHost } from "./expansion-host.js";
import {
  dashFlags,
  decodeEscapes,
  quoteValue,
  removeAffix,
  replace,
  sourceText,
  transform,
} from "./parameter-operations.js";
import type { Piece } from "./pieces.js";

/** `FUNCNAME`, `BASH_SOURCE`, `BASH_LINENO`: the call stack, innermost first. */
export function callStackVariable(state: ShellState, name: string): string[] | undefined {
  const frames = [...state.frames].reverse();
  if (name === "FUNCNAME") return frames.map((frame) => frame.name);
  if (name === "BASH_SOURCE") return frames.map((frame) => frame.source);
  if (name === "BASH_LINENO") return frames.map((frame) => String(frame.callLine));
  return undefined;
}

/** The word expander as parameter expansion calls back into it (`Expander` is one). */
export interface WordExpander {
  readonly host: ExpansionHost;
  readonly state: ShellState;
  ifs(): string;
  string(word: Word): Promise<string>;
  pattern(word: Word): Promise<string>;
  arithmetic(expression: Arithmetic): Promise<bigint>;
  evaluate(text: string): bigint;
  parts(
    parts: readonly WordPart[],
    quoted: boolean,
    out: Piece[],
    tilde: boolean,
    fromExpansion?: boolean,
  ): Promise<void>;
}

export class ParameterExpander {
  constructor(private readonly expander: WordExpander) {}

  private get state(): ShellState {
    return this.expander.state;
  }

  values(name: string, index: string | null): { values: string[] | null; multi: "@" | "*" | null } {
    const state = this.state;
    if (name === "@" || name === "*") return { values: [...state.positional], multi: name };
    if (/^[0-9]+$/.test(name)) {
      const position = Number(name);
      if (position === 0) return { values: [state.scriptName], multi: null };
      const value = state.positional[position - 1];
      return { values: value === undefined ? null : [value], multi: null };
    }
    if (state.circular(name)) {
      this.expander.host.warn(`warning: ${name}: circular name reference`);
      return { values: null, multi: null };
    }
    const special = this.special(name);
    if (special !== undefined) return { values: [special], multi: null };
    if (index === null) {
      const resolved = state.resolveName(name);
      if (resolved.includes("[")) {
        const value = state.get(name);
        return { values: value === undefined ? null : [value], multi: null };
      }
    }
    const variable = state.lookup(name);
    if (variable === undefined || variable.declaredOnly) {
      if (index === "@" || index === "*") return { values: [], multi: index };
      return { values: null, multi: null };
    }
    if (index === "@" || index === "*") return { values: arrayValues(variable), multi: index };
    if (index !== null) {
      const key = variable.assoc ? index : String(this.expander.evaluate(index));
      let resolved = key;
      if (!variable.assoc && key.startsWith("-")) {
        const keys = arrayKeys(variable);
        const last = Number(keys[keys.length - 1] ?? -1);
        resolved = String(last + 1 + Number(key));
      }
      const value =
        variable.array === null
          ? resolved === "0"
            ? (variable.value ?? undefined)
            : undefined
          : variable.array.get(resolved);
      return { values: value === undefined ? null : [value], multi: null };
    }
    const value = variable.array === null ? variable.value : variable.array.get("0");
    return { values: value === null || value === undefined ? null : [value], multi: null };
  }

  special(name: string): string | undefined {
    const state = this.state;
    switch (name) {
      case "?":
        return String(state.lastStatus);
      case "#":
        return String(state.positional.length);
      case "$":
        return String(state.pid);
      case "_":
        return state.lastArgument;
      case "!":
        return state.lastBackground;
      case "-":
        return dashFlags(state);
      default:
        return undefined;
    }
  }

  async parameter(part: ParameterExpansion, quoted: boolean, out: Piece[]): Promise<void> {
    let name = part.parameter;
    let index = part.index === null ? null : await this.expander.string(part.index);
    const reference = this.state.lookupRaw(name);
    if (
      part.indirect &&
      part.index === null &&
      part.operation === null &&
      reference?.nameref === true &&
      reference.value
    ) {
      // `${!ref}` of a nameref is the name it ends at, not that variable's value (bash).
      out.push({ kind: "text", text: this.state.resolveName(name), quoted, split: !quoted });
      return;
    }
    if (part.indirect && part.names === null && !(index === "@" || index === "*")) {
      const target = this.values(name, index).values?.[0];
      if (target === undefined || target === "") {
        if (part.operation?.kind === "default") {
          // fall through to the default handling with an unset value
        } else throw new ExpansionError(`${name}: invalid indirect expansion`);
      }
      const match = /^([^[]+)(?:\[(.*)\])?$/s.exec(target ?? "");
      name = match?.[1] ?? "";
      index = match?.[2] ?? null;
    }
    if (part.names !== null) {
      const names = this.state.names().filter((candidate) => candidate.startsWith(name));
      this.pushValues(names, part.names, quoted, out);
      return;
    }
    if (part.indirect && (index === "@" || index === "*")) {
      const variable = this.state.lookup(name);
      this.pushValues(variable === undefined ? [] : arrayKeys(variable), index, quoted, out);
      return;
    }
    const { values, multi } = this.values(name, index);
    const display = part.index === null ? name : `${name}[${index ?? ""}]`;
    if (part.length) {
      if (multi !== null) {
        out.push({ kind: "text", text: String(values?.length ?? 0), quoted, split: !quoted });
        return;
      }
      if (values === null && this.state.options.nounset)
        throw new ExpansionError(`${display}: unbound variable`);
      out.push({
        kind: "text",
        text: String(byteLength(values?.[0] ?? "")),
        quoted,
        split: !quoted,
      });
      return;
    }
    const operation = part.operation;
    if (operation?.kind === "default") {
      const isNull =
        values === null ||
        (operation.colon && (multi === null ? values[0] === "" : values.join("") === ""));
      const useWord = operation.operator === "+" ? !isNull : isNull;
      if (useWord) {
        if (operation.operator === "?") {
          const message = await this.expander.string(operation.word);
          throw new ExpansionError(
            `${display}: ${message === "" ? (operation.colon ? "parameter null or not set" : "parameter not set") : message}`,
          );
        }
        if (operation.operator === "=") {
          const value = await this.expander.string(operation.word);
          if (index === null) this.state.set(name, value);
          else this.state.setElement(name, index, value);
          out.push({ kind: "text", text: value, quoted, split: !quoted });
          return;
        }
        await this.expander.parts(
          operation.word.parts,
          quoted,
          out,
          operation.word.flags.tilde,
          true,
        );
        return;
      }
      if (operation.operator === "+") return;
    }
    if (values === null) {
      if (this.state.options.nounset && operation === null)
        throw new ExpansionError(`${display}: unbound variable`);
      if (operation?.kind === "invalid")
        throw new ExpansionError(`${sourceText(part)}: bad substitution`);
      if (multi === null && quoted)
        out.push({ kind: "text", text: "", quoted: true, split: false });
      return;
    }
    let results = values;
    if (operation !== null && operation.kind !== "default") {
      results = await this.operate(operation, values, part, multi);
    }
    if (multi === null) {
      out.push({ kind: "text", text: results[0] ?? "", quoted, split: !quoted });
      return;
    }
    this.pushValues(results, multi, quoted, out);
  }

  pushValues(values: readonly string[], multi: "@" | "*", quoted: boolean, out: Piece[]): void {
    if (quoted && multi === "*") {
      const ifs = this.expander.ifs();
      out.push({ kind: "text", text: values.join(ifs.slice(0, 1)), quoted: true, split: false });
      return;
    }
    for (const [position, value] of values.entries()) {
      if (position > 0) out.push({ kind: "break", hard: quoted, star: multi === "*" });
      out.push({ kind: "text", text: value, quoted, split: !quoted });
    }
  }

  transform(
    values: readonly string[],
    operator: string,
    part: ParameterExpansion,
    multi: "@" | "*" | null,
  ): string[] {
    const name = part.indirect ? this.state.resolveName(part.parameter) : part.parameter;
    const variable = this.state.lookup(name);
    switch (operator) {
      case "a": {
        const flags = variable === undefined ? "" : attributeFlags(variable);
        return values.map(() => flags);
      }
      case "A": {
        if (variable === undefined) return [];
        if (multi !== null || variable.array !== null)
          return [
            `declare -${attributeFlags(variable) || "-"} ${declareLine(name, variable).split(" ").slice(2).join(" ")}`,
          ];
        const flags = attributeFlags(variable);
        const assignment = `${name}=${quoteValue(values[0] ?? "")}`;
        return [flags === "" ? assignment : `declare -${flags} ${assignment}`];
      }
      case "E":
        return values.map((value) => decodeEscapes(value));
      case "K":
      case "k": {
        if (variable?.array != null && (multi !== null || part.index === null)) {
          const array = variable.array;
          const keys = arrayKeys(variable);
          if (multi === null) return [quoteValue(array.get("0") ?? "")];
          const pairs = keys.map((key) =>
            operator === "K"
              ? `${variable.assoc ? key : key} ${quoteValue(array.get(key) ?? "")}`
              : `${key} ${quoteValue(array.get(key) ?? "")}`,
          );
          return operator === "K" ? [pairs.join(" ")] : pairs.flatMap((pair) => pair.split(" "));
        }
        return values.map((value) => quoteValue(value));
      }
      default:
        return values.map((value) => transform(value, operator, part.parameter));
    }
  }

  async operate(
    operation: Exclude<ParameterExpansion["operation"], null>,
    values: readonly string[],
    part: ParameterExpansion,
    multi: "@" | "*" | null,
  ): Promise<string[]> {
    switch (operation.kind) {
      case "removePrefix":
      case "removeSuffix": {
        const pattern = await this.expander.pattern(operation.pattern);
        return values.map((value) =>
          removeAffix(value, pattern, operation.kind === "removePrefix", operation.longest),
        );
      }
      case "replace": {
        const pattern = await this.expander.pattern(operation.pattern);
        const replacement =
          operation.replacement === null ? "" : await this.expander.string(operation.replacement);
        return values.map((value) => replace(value, pattern, replacement, operation.mode));
      }
      case "substring": {
        const offset = Number(await this.expander.arithmetic(operation.offset));
        const length =
          operation.length === null
            ? null
            : Number(await this.expander.arithmetic(operation.length));
        if (multi !== null) {
          const list =
            part.parameter === "@" || part.parameter === "*"
              ? [this.state.scriptName, ...values]
              : values;
          let start = offset < 0 ? list.length + offset : offset;
          if (part.parameter !== "@" && part.parameter !== "*")
            start = offset < 0 ? values.length + offset : offset;
          const source = part.parameter === "@" || part.parameter === "*" ? list : values;
          if (start < 0) return [];
          const end =
            length === null ? source.length : length < 0 ? source.length + length : start + length;
          return source.slice(start, end);
        }
        // Offsets and lengths count bytes, as bash's do under LC_ALL=C.
        return values.map((value) => {
          const size = byteLength(value);
          let start = offset < 0 ? size + offset : offset;
          if (start < 0) return "";
          start = Math.min(start, size);
          if (length === null) return sliceBytes(value, start);
          if (length < 0) {
            const end = size + length;
            if (end < start) throw new ExpansionError(`${length}: substring expression < 0`);
            return sliceBytes(value, start, end);
          }
          return sliceBytes(value, start, start + length);
        });
      }
      case "case": {
        const pattern =
          operation.pattern === null ? null : await this.expander.pattern(operation.pattern);
        const upper = operation.operator.startsWith("^");
        const all = operation.operator.length === 2;
        return values.map((value) => {
          const chars = [...value];
          return chars
            .map((char, position) => {
              if (!all && position > 0) return char;
              if (pattern !== null && !matchPattern(pattern, char)) return char;
              // Only ASCII letters change case under LC_ALL=C.
              if (char >= "\x80") return char;
              return upper ? char.toUpperCase() : char.toLowerCase();
            })
            .join("");
        });
      }
      case "transform":
        return this.transform(values, operation.operator, part, multi);
      case "invalid":
        throw new ExpansionError(`${sourceText(part)}: bad substitution`);
      default:
        return [...values];
    }
  }
}
