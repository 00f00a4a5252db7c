/** `test` and `[`: bash's argument-count rules, `!`, `( )`, `-a`, `-o`, file probes. */

import { fileTest, isBinaryOperator, testBinary } from "../commands/file-test.js";
import type { Builtin, BuiltinContext } from "./builtin-context.js";

class TestSyntax extends Error {}

const INTEGER_OPERATORS = new Set(["-eq", "-ne", "-lt", "-le", "-gt", "-ge"]);

async function runTest(args: string[], context: BuiltinContext): Promise<boolean> {
  let position = 0;
  const interpreter = context.interpreter;
  const isInteger = (text: string): boolean => /^\s*[-+]?[0-9]+\s*$/.test(text);
  const primary = async (): Promise<boolean> => {
    const arg = args[position];
    if (arg === undefined) throw new TestSyntax("argument expected");
    if (arg === "!") {
      position += 1;
      return !(await primary());
    }
    if (arg === "(" && args.length - position >= 3) {
      position += 1;
      const value = await or();
      if (args[position] !== ")") throw new TestSyntax("`)' expected");
      position += 1;
      return value;
    }
    const op = args[position + 1];
    if (op !== undefined && isBinaryOperator(op) && args[position + 2] !== undefined) {
      const right = args[position + 2] as string;
      position += 3;
      if (INTEGER_OPERATORS.has(op)) {
        if (!isInteger(arg)) throw new TestSyntax(`${arg}: integer expression expected`);
        if (!isInteger(right)) throw new TestSyntax(`${right}: integer expression expected`);
      }
      return testBinary(interpreter, op, arg, right);
    }
    if (/^-[a-zA-Z]$/.test(arg) && args[position + 1] !== undefined) {
      const operand = args[position + 1] as string;
      position += 2;
      if (arg === "-z") return operand === "";
      if (arg === "-n") return operand !== "";
      if (arg === "-v") return interpreter.isSet(operand);
      if (arg === "-t") return false;
      if (arg === "-o") return interpreter.optionSet(operand);
      return fileTest(interpreter, arg, operand);
    }
    position += 1;
    return arg !== "";
  };
  const and = async (): Promise<boolean> => {
    let value = await primary();
    while (args[position] === "-a") {
      position += 1;
      const right = await primary();
      value = value && right;
    }
    return value;
  };
  const or = async (): Promise<boolean> => {
    let value = await and();
    while (args[position] === "-o") {
      position += 1;
      const right = await and();
      value = value || right;
    }
    return value;
  };
  if (args.length === 0) return false;
  if (args.length === 1) return args[0] !== "";
  if (args.length === 2 && args[0] === "!") return args[1] === "";
  const value = await or();
  if (position < args.length) throw new TestSyntax("too many arguments");
  return value;
}

async function testStatus(context: BuiltinContext, name: string, args: string[]): Promise<number> {
  try {
    return (await runTest(args, context)) ? 0 : 1;
  } catch (error) {
    if (error instanceof TestSyntax) {
      context.error(`${name}: ${error.message}`);
      return 2;
    }
    throw error;
  }
}

export const test: Builtin = (context, args) => testStatus(context, "test", args);

export const bracket: Builtin = (context, args) => {
  if (args[args.length - 1] !== "]") {
    context.error("[: missing `]'");
    return 2;
  }
  return testStatus(context, "[", args.slice(0, -1));
};
