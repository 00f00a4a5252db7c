/**
 * Bash arithmetic on already-expanded text: 64-bit signed integers (BigInt wrapped),
 * bash's operator precedence, short-circuit `&&` `||` `?:`, assignment operators and
 * `++`/`--` on variables (values that are themselves expressions are evaluated).
 */

import { plainNumber } from "./plain-number.js";

export class ArithmeticError extends Error {
  constructor(
    message: string,
    readonly token: string,
  ) {
    super(message);
  }
}

/** How the evaluator reads and writes shell variables (`name` or `name[index]`). */
export interface ArithmeticScope {
  get(name: string, index: string | null): string | undefined;
  set(name: string, index: string | null, value: string): void;
}

type Token = (
  | { readonly kind: "num"; readonly value: bigint }
  | { readonly kind: "name"; readonly name: string; readonly index: string | null }
  | { readonly kind: "op"; readonly op: string }
) & { readonly start: number };

const OPERATORS = [
  "<<=",
  ">>=",
  "**",
  "++",
  "--",
  "<<",
  ">>",
  "<=",
  ">=",
  "==",
  "!=",
  "&&",
  "||",
  "+=",
  "-=",
  "*=",
  "/=",
  "%=",
  "&=",
  "^=",
  "|=",
  "+",
  "-",
  "*",
  "/",
  "%",
  "<",
  ">",
  "!",
  "~",
  "&",
  "^",
  "|",
  "?",
  ":",
  "=",
  "(",
  ")",
  ",",
];

const wrap = (value: bigint): bigint => BigInt.asIntN(64, value);

function parseNumber(text: string): bigint {
  const hash = text.indexOf("#");
  if (hash > 0) {
    const base = Number(text.slice(0, hash));
    const digits = text.slice(hash + 1);
    if (!(base >= 2 && base <= 64) || digits === "")
      throw new ArithmeticError("invalid arithmetic base", text);
    let value = 0n;
    for (const char of digits) {
      let digit: number;
      if (char >= "0" && char <= "9") digit = char.charCodeAt(0) - 48;
      else if (char >= "a" && char <= "z") digit = char.charCodeAt(0) - 97 + 10;
      else if (char >= "A" && char <= "Z") digit = char.charCodeAt(0) - 65 + (base <= 36 ? 10 : 36);
      else if (char === "@") digit = 62;
      else if (char === "_") digit = 63;
      else throw new ArithmeticError("value too great for base", text);
      if (digit >= base) throw new ArithmeticError("value too great for base", text);
      value = wrap(value * BigInt(base) + BigInt(digit));
    }
    return value;
  }
  if (/^0[xX][0-9a-fA-F]+$/.test(text)) return wrap(BigInt(text));
  if (/^0[0-7]+$/.test(text)) return wrap(BigInt(`0o${text.slice(1)}`));
  if (/^[0-9]+$/.test(text)) return wrap(BigInt(text));
  throw new ArithmeticError("value too great for base", text);
}

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let pos = 0;
  while (pos < text.length) {
    const char = text[pos] as string;
    if (/\s/.test(char)) {
      pos += 1;
      continue;
    }
    if (/[0-9]/.test(char)) {
      const match = /^[0-9][0-9a-zA-Z_@#]*/.exec(text.slice(pos)) as RegExpExecArray;
      tokens.push({ kind: "num", value: parseNumber(match[0]), start: pos });
      pos += match[0].length;
      continue;
    }
    if (/[A-Za-z_]/.test(char)) {
      const match = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(pos)) as RegExpExecArray;
      const start = pos;
      pos += match[0].length;
      let index: string | null = null;
      if (text[pos] === "[") {
        let depth = 0;
        let end = pos;
        for (; end < text.length; end += 1) {
          if (text[end] === "[") depth += 1;
          else if (text[end] === "]") {
            depth -= 1;
            if (depth === 0) break;
          }
        }
        index = text.slice(pos + 1, end);
        pos = end + 1;
      }
      tokens.push({ kind: "name", name: match[0], index, start });
      continue;
    }
    const op = OPERATORS.find((candidate) => text.startsWith(candidate, pos));
    if (op === undefined) {
      throw new ArithmeticError(
        "syntax error: invalid arithmetic operator",
        text.slice(pos).trim(),
      );
    }
    tokens.push({ kind: "op", op, start: pos });
    pos += op.length;
  }
  return tokens;
}

type Node =
  | { readonly kind: "num"; readonly value: bigint }
  | { readonly kind: "var"; readonly name: string; readonly index: string | null }
  | { readonly kind: "unary"; readonly op: string; readonly operand: Node }
  | {
      readonly kind: "incdec";
      readonly op: string;
      readonly prefix: boolean;
      readonly target: Node;
    }
  | {
      readonly kind: "binary";
      readonly op: string;
      readonly left: Node;
      readonly right: Node;
      /** The text from the right operand on (bash's "error token"). */
      readonly rest: string;
    }
  | { readonly kind: "assign"; readonly op: string; readonly target: Node; readonly value: Node }
  | { readonly kind: "ternary"; readonly test: Node; readonly yes: Node; readonly no: Node };

const BINARY_LEVELS: readonly (readonly string[])[] = [
  ["||"],
  ["&&"],
  ["|"],
  ["^"],
  ["&"],
  ["==", "!="],
  ["<", ">", "<=", ">="],
  ["<<", ">>"],
  ["+", "-"],
  ["*", "/", "%"],
];
const ASSIGN_OPS = new Set(["=", "+=", "-=", "*=", "/=", "%=", "<<=", ">>=", "&=", "^=", "|="]);

class Parser {
  private pos = 0;
  constructor(
    private readonly tokens: readonly Token[],
    private readonly text: string,
  ) {}

  private peekOp(): string | null {
    const token = this.tokens[this.pos];
    return token?.kind === "op" ? token.op : null;
  }

  private restFrom(): string {
    const token = this.tokens[this.pos];
    return token === undefined ? "" : this.text.slice(token.start);
  }

  private rest(): string {
    const token = this.tokens[this.pos];
    if (token === undefined) return "";
    return token.kind === "op" ? token.op : token.kind === "num" ? String(token.value) : token.name;
  }

  parseAll(): Node {
    const node = this.comma();
    if (this.pos < this.tokens.length)
      throw new ArithmeticError("syntax error in expression", this.rest());
    return node;
  }

  private comma(): Node {
    let node = this.assignment();
    while (this.peekOp() === ",") {
      this.pos += 1;
      const rest = this.restFrom();
      node = { kind: "binary", op: ",", left: node, right: this.assignment(), rest };
    }
    return node;
  }

  private assignment(): Node {
    const token = this.tokens[this.pos];
    const next = this.tokens[this.pos + 1];
    if (token?.kind === "name" && next?.kind === "op" && ASSIGN_OPS.has(next.op)) {
      this.pos += 2;
      return {
        kind: "assign",
        op: next.op,
        target: { kind: "var", name: token.name, index: token.index },
        value: this.assignment(),
      };
    }
    return this.ternary();
  }

  private ternary(): Node {
    const test = this.binary(0);
    if (this.peekOp() !== "?") return test;
    this.pos += 1;
    const yes = this.assignment();
    if (this.peekOp() !== ":")
      throw new ArithmeticError("`:' expected for conditional expression", this.rest());
    this.pos += 1;
    const no = this.assignment();
    return { kind: "ternary", test, yes, no };
  }

  private binary(level: number): Node {
    const ops = BINARY_LEVELS[level];
    if (ops === undefined) return this.power();
    let node = this.binary(level + 1);
    for (;;) {
      const op = this.peekOp();
      if (op === null || !ops.includes(op)) return node;
      this.pos += 1;
      const rest = this.restFrom();
      node = { kind: "binary", op, left: node, right: this.binary(level + 1), rest };
    }
  }

  private power(): Node {
    const base = this.unary();
    if (this.peekOp() !== "**") return base;
    this.pos += 1;
    const rest = this.restFrom();
    return { kind: "binary", op: "**", left: base, right: this.power(), rest };
  }

  private unary(): Node {
    const op = this.peekOp();
    if (op === "++" || op === "--") {
      this.pos += 1;
      const target = this.unary();
      if (target.kind !== "var")
        throw new ArithmeticError("syntax error: operand expected", this.rest());
      return { kind: "incdec", op, prefix: true, target };
    }
    if (op === "!" || op === "~" || op === "-" || op === "+") {
      this.pos += 1;
      return { kind: "unary", op, operand: this.unary() };
    }
    return this.postfix();
  }

  private postfix(): Node {
    const node = this.primary();
    const op = this.peekOp();
    if ((op === "++" || op === "--") && node.kind === "var") {
      this.pos += 1;
      return { kind: "incdec", op, prefix: false, target: node };
    }
    return node;
  }

  private primary(): Node {
    const token = this.tokens[this.pos];
    if (token === undefined) {
      throw new ArithmeticError("syntax error: operand expected", "");
    }
    if (token.kind === "num") {
      this.pos += 1;
      return { kind: "num", value: token.value };
    }
    if (token.kind === "name") {
      this.pos += 1;
      return { kind: "var", name: token.name, index: token.index };
    }
    if (token.op === "(") {
      this.pos += 1;
      const inner = this.comma();
      if (this.peekOp() !== ")") throw new ArithmeticError("missing `)'", this.rest());
      this.pos += 1;
      return inner;
    }
    throw new ArithmeticError(
      "syntax error: operand expected",
      this.text.length > 0 ? this.restText() : "",
    );
  }

  private restText(): string {
    return this.tokens
      .slice(this.pos)
      .map((token) =>
        token.kind === "op" ? token.op : token.kind === "num" ? String(token.value) : token.name,
      )
      .join(" ");
  }
}

/** Parsed expressions by text: loops evaluate the same few texts over and over. */
const parsed = new Map<string, Node>();
const PARSED_LIMIT = 1024;

function parseExpression(text: string): Node {
  const cached = parsed.get(text);
  if (cached !== undefined) return cached;
  const node = new Parser(tokenize(text), text).parseAll();
  if (parsed.size >= PARSED_LIMIT) parsed.clear();
  parsed.set(text, node);
  return node;
}

/** Evaluate `text` (already expanded); throws `ArithmeticError` with bash's wording. */
export function evaluateArithmetic(text: string, scope: ArithmeticScope, depth = 0): bigint {
  if (depth > 64) throw new ArithmeticError("expression recursion level exceeded", text);
  const plain = plainNumber(text);
  if (plain !== null) return plain;
  if (text.trim() === "") return 0n;
  return new Evaluator(scope, depth).eval(parseExpression(text));
}

class Evaluator {
  constructor(
    private readonly scope: ArithmeticScope,
    private readonly depth: number,
  ) {}

  private read(node: Node & { kind: "var" }): bigint {
    const index = node.index === null ? null : this.indexText(node.index);
    const value = this.scope.get(node.name, index);
    if (value === undefined || value === "") return 0n;
    return evaluateArithmetic(value, this.scope, this.depth + 1);
  }

  private indexText(index: string): string {
    return String(evaluateArithmetic(index, this.scope, this.depth + 1));
  }

  private write(node: Node, value: bigint): bigint {
    if (node.kind !== "var") throw new ArithmeticError("attempted assignment to non-variable", "");
    this.scope.set(
      node.name,
      node.index === null ? null : this.indexText(node.index),
      String(value),
    );
    return value;
  }

  eval(node: Node): bigint {
    switch (node.kind) {
      case "num":
        return node.value;
      case "var":
        return this.read(node);
      case "unary": {
        const value = this.eval(node.operand);
        if (node.op === "!") return value === 0n ? 1n : 0n;
        if (node.op === "~") return wrap(~value);
        if (node.op === "-") return wrap(-value);
        return value;
      }
      case "incdec": {
        if (node.target.kind !== "var") return 0n;
        const old = this.read(node.target);
        const next = wrap(node.op === "++" ? old + 1n : old - 1n);
        this.write(node.target, next);
        return node.prefix ? next : old;
      }
      case "ternary":
        return this.eval(node.test) !== 0n ? this.eval(node.yes) : this.eval(node.no);
      case "assign": {
        const value = this.eval(node.value);
        if (node.op === "=") return this.write(node.target, value);
        const old = node.target.kind === "var" ? this.read(node.target) : 0n;
        return this.write(node.target, binaryOp(node.op.slice(0, -1), old, value));
      }
      case "binary": {
        if (node.op === "&&")
          return this.eval(node.left) !== 0n && this.eval(node.right) !== 0n ? 1n : 0n;
        if (node.op === "||")
          return this.eval(node.left) !== 0n || this.eval(node.right) !== 0n ? 1n : 0n;
        const left = this.eval(node.left);
        const right = this.eval(node.right);
        if (node.op === ",") return right;
        try {
          return binaryOp(node.op, left, right);
        } catch (error) {
          if (error instanceof ArithmeticError && error.message === "division by 0")
            throw new ArithmeticError(error.message, node.rest);
          throw error;
        }
      }
    }
  }
}

function binaryOp(op: string, left: bigint, right: bigint): bigint {
  switch (op) {
    case "+":
      return wrap(left + right);
    case "-":
      return wrap(left - right);
    case "*":
      return wrap(left * right);
    case "/":
    case "%":
      if (right === 0n) throw new ArithmeticError("division by 0", "0");
      if (left === -(2n ** 63n) && right === -1n) return op === "/" ? left : 0n;
      return op === "/" ? wrap(left / right) : wrap(left % right);
    case "**":
      if (right < 0n) throw new ArithmeticError("exponent less than 0", String(right));
      return power(left, right);
    case "<<":
      return wrap(left << (right & 63n));
    case ">>":
      return wrap(left >> (right & 63n));
    case "&":
      return left & right;
    case "|":
      return left | right;
    case "^":
      return left ^ right;
    case "<":
      return left < right ? 1n : 0n;
    case ">":
      return left > right ? 1n : 0n;
    case "<=":
      return left <= right ? 1n : 0n;
    case ">=":
      return left >= right ? 1n : 0n;
    case "==":
      return left === right ? 1n : 0n;
    case "!=":
      return left !== right ? 1n : 0n;
    default:
      throw new ArithmeticError("syntax error in expression", op);
  }
}

function power(base: bigint, exponent: bigint): bigint {
  let result = 1n;
  let factor = base;
  let rest = exponent;
  while (rest > 0n) {
    if (rest & 1n) result = wrap(result * factor);
    factor = wrap(factor * factor);
    rest >>= 1n;
  }
  return result;
}
