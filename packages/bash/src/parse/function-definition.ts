/** Function definitions: `name () compound` and `function name [()] compound`. */
import type { CompoundCommand, FunctionDefinition } from "./ast-command.js";
import { parseCompound, startsCompound } from "./compound.js";
import type { Token } from "./lexer.js";
import type { Parser } from "./parser.js";

function parseBody(parser: Parser): CompoundCommand {
  parser.skipNewlines();
  const token = parser.peek();
  if (!startsCompound(parser, token)) parser.fail(token);
  return parseCompound(parser);
}

/** `name ( ) body`, the name token already consumed and `(` next. */
export function parseFunctionParens(parser: Parser, nameToken: Token): FunctionDefinition {
  parser.expectOperator("(");
  parser.expectOperator(")");
  const body = parseBody(parser);
  const name = parser.literal(nameToken) ?? "";
  return {
    type: "FunctionDefinition",
    name,
    keyword: false,
    body,
    start: nameToken.start,
    end: body.end,
  };
}

/** `function name [()] body`, at the `function` word. */
export function parseFunctionKeyword(parser: Parser): FunctionDefinition {
  const start = parser.next().start;
  const nameToken = parser.peek();
  const name = parser.literal(nameToken);
  if (name === null) parser.fail(nameToken);
  parser.next();
  // `()` is optional after `function name`: a `(` not followed by `)` opens a subshell
  // body (`function g ( list )`), and `((` an arithmetic one (`function g ((x--))`).
  const after = parser.peek();
  if (after.kind === "operator" && after.operator === "(") {
    const before = parser.state.pos;
    parser.next();
    const close = parser.peek();
    if (close.kind === "operator" && close.operator === ")") parser.next();
    else parser.state.pos = before;
  }
  const body = parseBody(parser);
  return { type: "FunctionDefinition", name, keyword: true, body, start, end: body.end };
}
