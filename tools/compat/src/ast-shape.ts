/**
 * The meaning of a parsed script without its layout: the AST with offsets dropped and
 * bash's re-printing normalisations (`declare -f`) undone, so that the AST of a script
 * and the AST of bash's re-print of it are equal exactly when both parsers read the same
 * commands, words and expansions. The normalisations, each something `declare -f` does:
 *
 * - offsets: re-printing re-indents, re-spaces and puts one command per line;
 * - the raw text of an invalid `${…}` operation loses its line continuations;
 * - adjacent literal text is one literal: bash drops line continuations (`a\<nl>b` is
 *   printed `ab`), so a literal our parser split at a continuation is printed whole;
 * - quoted literal text is one kind of part: `$'…'` is printed decoded in single quotes
 *   (`$'\101'` as `'A'`, `$'\''` as `\'`), so single quotes, backslash escapes and
 *   `$'…'` become one `Quoted` part (its decoded text), merged when adjacent;
 * - `$"…"` is printed `"…"` (no catalogue is consulted);
 * - a redirection's default descriptor is written out: `>&2` is printed `1>&2`;
 * - closing a descriptor is printed `>&-` whichever way it was written (`3<&-` as `3>&-`,
 *   `<&-` as `0>&-`);
 * - a here-document's delimiter word is printed in the form it stands for: `E''OF` as
 *   `'EOF'` (the `Heredoc` node keeps the delimiter and whether it was quoted);
 * - `[[ ! ! e ]]` is printed `[[ e ]]`, and `[[ word ]]` as `[[ -n word ]]`;
 * - an empty `for ((;;))` expression is printed `1`;
 * - `a |& b` is printed `a 2>&1 | b`;
 * - `for x; do` is printed `for x in "$@";`;
 * - the last `case` item gets its `;;`;
 * - `elif c; then b` is printed `else if c; then b; fi`;
 * - a nested function definition is printed `function name ()`, and a body that is not
 *   a brace group is printed inside one (`g() ( x ) >f` as `function g () { ( x ) > f }`);
 * - an argument of a declaration builtin shaped like an assignment is one text: bash
 *   prints redirections last, so `a=1 >f declare x=1` (where `x=1` is a plain word, as
 *   the `declare` is not in command position) is printed `a=1 declare x=1 > f` (where it
 *   is an assignment); both mean the same to `declare`;
 * - the blanks at the two ends of an arithmetic command or expansion's text are not kept.
 */
import type { AstNode } from "@agent-bridle/bash";

const OUTPUT = new Set([">", ">>", ">|", ">&"]);
const INPUT = new Set(["<", "<>", "<&", "<<", "<<-", "<<<"]);

type Plain = null | boolean | number | string | Plain[] | { [key: string]: Plain };
type PlainObject = { [key: string]: Plain };

/**
 * A copy of `value` whose objects have their keys in sorted order, so that
 * `JSON.stringify` of two equal shapes is one text whichever way they were built.
 */
/** `object` with its own keys in sorted order (its values as they are). */
function node(object: PlainObject): PlainObject {
  const out: PlainObject = {};
  for (const key of Object.keys(object).sort()) out[key] = object[key] as Plain;
  return out;
}

function sorted<T extends Plain>(value: T): T {
  if (Array.isArray(value)) return value.map(sorted) as T;
  if (value === null || typeof value !== "object") return value;
  const out: PlainObject = {};
  for (const key of Object.keys(value).sort())
    out[key] = sorted((value as PlainObject)[key] as Plain);
  return out as T;
}

const QUOTED_TEXT = new Set(["SingleQuoted", "Escaped", "AnsiCQuoted", "Quoted"]);

/** Adjacent literals merged, and adjacent quoted text (see the header) merged. */
function mergeLiterals(parts: Plain[]): Plain[] {
  const merged: Plain[] = [];
  for (const part of parts) {
    const previous = merged[merged.length - 1] as { type?: string; value?: string } | undefined;
    const current = part as { type?: string; value?: string };
    const quoted = QUOTED_TEXT.has(current.type ?? "");
    if (quoted && previous?.type === "Quoted") {
      merged[merged.length - 1] = { type: "Quoted", value: `${previous.value}${current.value}` };
    } else if (quoted) {
      merged.push({ type: "Quoted", value: current.value ?? "" });
    } else if (previous?.type === "Literal" && current.type === "Literal") {
      merged[merged.length - 1] = { type: "Literal", value: `${previous.value}${current.value}` };
    } else if (current.type !== "Literal" || current.value !== "") merged.push(part);
  }
  return merged;
}

function trimArithmetic(parts: Plain[]): Plain[] {
  const trimmed = [...parts];
  const first = trimmed[0] as { type?: string; value?: string } | undefined;
  if (first?.type === "Literal")
    trimmed[0] = { type: "Literal", value: (first.value ?? "").trimStart() };
  const lastIndex = trimmed.length - 1;
  const last = trimmed[lastIndex] as { type?: string; value?: string } | undefined;
  if (last?.type === "Literal")
    trimmed[lastIndex] = { type: "Literal", value: (last.value ?? "").trimEnd() };
  return trimmed.filter((part) => (part as { value?: string }).value !== "");
}

const WORD_FLAGS = { glob: false, brace: false, tilde: false };

/** `"$@"` as the parser reads it, offsets dropped. */
const ALL_ARGUMENTS: Plain = sorted([
  {
    type: "Word",
    flags: { ...WORD_FLAGS, quoted: true },
    parts: [
      {
        type: "DoubleQuoted",
        parts: [
          {
            type: "ParameterExpansion",
            braced: false,
            parameter: "@",
            index: null,
            length: false,
            indirect: false,
            names: null,
            operation: null,
          },
        ],
      },
    ],
  },
]);

/** `2>&1`, what `|&` adds to the command before it. */
const STDERR_TO_STDOUT: Plain = sorted({
  type: "Redirect",
  fd: 2,
  fdVariable: null,
  operator: ">&",
  target: {
    type: "Word",
    flags: { ...WORD_FLAGS, quoted: false },
    parts: [{ type: "Literal", value: "1" }],
  },
  heredoc: null,
});

function redirectShape(redirect: PlainObject): void {
  const operator = String(redirect.operator);
  if (redirect.fd === null && redirect.fdVariable === null)
    redirect.fd = OUTPUT.has(operator) ? 1 : INPUT.has(operator) ? 0 : null;
  const target = redirect.target as PlainObject;
  const parts = target.parts as PlainObject[];
  const closes = parts.length === 1 && parts[0]?.type === "Literal" && parts[0].value === "-";
  if ((operator === "<&" || operator === ">&") && closes) redirect.operator = ">&";
  if (redirect.heredoc !== null) delete redirect.target;
}

const DECLARATIONS = new Set(["declare", "typeset", "local", "export", "readonly"]);

/** The parts of an assignment written as one word (`name[index]+=value`). */
function assignmentParts(assignment: PlainObject): Plain[] {
  const index = assignment.index as PlainObject | null;
  const value = assignment.value as PlainObject | null;
  const parts: Plain[] = [{ type: "Literal", value: String(assignment.name) }];
  if (index !== null)
    parts.push({ type: "Literal", value: "[" }, ...(index.parts as Plain[]), {
      type: "Literal",
      value: "]",
    });
  parts.push({ type: "Literal", value: assignment.append ? "+=" : "=" });
  if (value?.type === "Word") parts.push(...(value.parts as Plain[]));
  else if (value !== null) parts.push(value);
  return mergeLiterals(parts);
}

/** `declare x=1`: each argument as `{ type: "Argument", parts }`, an assignment or a word alike. */
function declarationArguments(command: PlainObject): void {
  const words = command.words as PlainObject[];
  const first = words[0]?.parts as PlainObject[] | undefined;
  const name = first?.length === 1 && first[0]?.type === "Literal" ? String(first[0].value) : "";
  if (!DECLARATIONS.has(name)) return;
  command.words = words.map((word, index) =>
    index === 0
      ? word
      : node({
          type: "Argument",
          parts: word.type === "Assignment" ? assignmentParts(word) : (word.parts as Plain[]),
        }),
  );
}

/** `if a; then b; elif c; then d; fi` as `if a; then b; else if c; then d; fi; fi`. */
function nestElif(command: PlainObject): void {
  const clauses = command.clauses as Plain[];
  if (clauses.length < 2) return;
  const inner: PlainObject = node({
    type: "If",
    clauses: clauses.slice(1),
    elseBody: command.elseBody as Plain,
  });
  nestElif(inner);
  const pipeline = sorted({
    type: "Pipeline",
    negated: false,
    timed: null,
    operators: [],
    commands: [{ type: "CompoundCommand", redirects: [], body: inner }],
  });
  command.clauses = clauses.slice(0, 1);
  command.elseBody = sorted({
    type: "List",
    statements: [
      {
        type: "Statement",
        background: false,
        andOr: { type: "AndOr", operators: [], pipelines: [pipeline] },
      },
    ],
  });
}

/** `a |& b` as `a 2>&1 | b`. */
function pipeStderr(pipeline: PlainObject): void {
  const operators = pipeline.operators as Plain[];
  const commands = pipeline.commands as PlainObject[];
  operators.forEach((operator, index) => {
    if (operator !== "|&") return;
    operators[index] = "|";
    const command = commands[index] as PlainObject;
    const holder = command.type === "FunctionDefinition" ? (command.body as PlainObject) : command;
    holder.redirects = [...(holder.redirects as Plain[]), STDERR_TO_STDOUT];
  });
}

/** A function body that is not a brace group, put inside one; the keyword dropped. */
function functionShape(definition: PlainObject): void {
  delete definition.keyword;
  const body = definition.body as PlainObject;
  if ((body.body as PlainObject).type === "BraceGroup") return;
  const statement = sorted({
    type: "Statement",
    background: false,
    andOr: {
      type: "AndOr",
      operators: [],
      pipelines: [
        { type: "Pipeline", negated: false, timed: null, operators: [], commands: [body] },
      ],
    },
  });
  definition.body = sorted({
    type: "CompoundCommand",
    redirects: [],
    body: { type: "BraceGroup", body: { type: "List", statements: [statement] } },
  });
}

/** Each kind of node's keys, sorted, without the offsets. */
const KEYS = new Map<string, readonly string[]>();

function keysOf(object: Record<string, unknown>): readonly string[] {
  const kind = `${String(object.type ?? object.kind)}:${Object.keys(object).length}`;
  let keys = KEYS.get(kind);
  if (keys === undefined) {
    keys = Object.keys(object)
      .filter((key) => key !== "start" && key !== "end")
      .sort();
    KEYS.set(kind, keys);
  }
  return keys;
}

function shapeObject(object: Record<string, unknown>): Plain {
  const out: PlainObject = {};
  for (const key of keysOf(object)) out[key] = shape(object[key]);
  if (out.type === "LocaleQuoted") out.type = "DoubleQuoted";
  if (Array.isArray(out.parts)) {
    out.parts = mergeLiterals(out.parts);
    if (out.type === "Arithmetic") out.parts = trimArithmetic(out.parts);
  }
  if (out.kind === "invalid") out.text = String(out.text).replaceAll("\\\n", "");
  if (out.type === "Redirect") redirectShape(out);
  if (out.type === "ConditionalWord")
    return node({ type: "ConditionalUnary", operator: "-n", operand: out.word as Plain });
  if (out.type === "ConditionalNot" && (out.operand as PlainObject).type === "ConditionalNot")
    return (out.operand as PlainObject).operand as Plain;
  if (out.type === "ArithmeticFor") {
    for (const key of ["init", "test", "update"]) {
      const expression = out[key] as PlainObject;
      if ((expression.parts as Plain[]).length === 0)
        expression.parts = [{ type: "Literal", value: "1" }];
    }
  }
  if ((out.type === "For" || out.type === "Select") && out.words === null)
    out.words = ALL_ARGUMENTS;
  if (out.type === "CaseItem" && out.terminator === null) out.terminator = ";;";
  if (out.type === "SimpleCommand") declarationArguments(out);
  if (out.type === "If") nestElif(out);
  if (out.type === "Pipeline") pipeStderr(out);
  if (out.type === "FunctionDefinition") functionShape(out);
  return out;
}

/** The normalised shape of an AST node (see the header for what is normalised). */
export function shape(node: unknown): Plain {
  if (Array.isArray(node)) return node.map(shape);
  if (node === null || typeof node !== "object") return node as Plain;
  return shapeObject(node as Record<string, unknown>);
}

/** A node's shape as text, for comparing and for failure messages. */
export function shapeText(node: AstNode | unknown): string {
  return JSON.stringify(shape(node));
}
