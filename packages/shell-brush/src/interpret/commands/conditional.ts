/** `[[ … ]]`: string and pattern tests, `=~` with `BASH_REMATCH`, file probes through the gate. */
import type { ConditionalExpression } from "@agent-bridle/bash";
import { matchPattern } from "@agent-bridle/bash";
import type { ExecContext } from "../exec-context.js";
import { fileTest, isBinaryOperator, testBinary } from "./file-test.js";

export async function evaluateConditional(
  interpreter: ExecContext,
  expression: ConditionalExpression,
): Promise<boolean> {
  switch (expression.type) {
    case "ConditionalGroup":
      return evaluateConditional(interpreter, expression.expression);
    case "ConditionalNot":
      return !(await evaluateConditional(interpreter, expression.operand));
    case "ConditionalLogical":
      return expression.operator === "&&"
        ? (await evaluateConditional(interpreter, expression.left)) &&
            (await evaluateConditional(interpreter, expression.right))
        : (await evaluateConditional(interpreter, expression.left)) ||
            (await evaluateConditional(interpreter, expression.right));
    case "ConditionalWord":
      return (await interpreter.expander.string(expression.word)) !== "";
    case "ConditionalUnary": {
      const operand = await interpreter.expander.string(expression.operand);
      if (expression.operator === "-z") return operand === "";
      if (expression.operator === "-n") return operand !== "";
      if (expression.operator === "-v") return interpreter.isSet(operand);
      if (expression.operator === "-R") {
        const variable = interpreter.state.lookupRaw(operand);
        return variable?.nameref === true && !variable.declaredOnly && variable.value !== "";
      }
      if (expression.operator === "-o") return interpreter.optionSet(operand);
      return fileTest(interpreter, expression.operator, operand);
    }
    case "ConditionalBinary": {
      const left = await interpreter.expander.string(expression.left);
      const op = expression.operator;
      if (op === "==" || op === "=" || op === "!=") {
        const pattern = await interpreter.expander.pattern(expression.right);
        const matched = matchPattern(pattern, left, interpreter.state.shopt.has("nocasematch"));
        return op === "!=" ? !matched : matched;
      }
      if (op === "=~") {
        const regexText = await interpreter.expander.regex(expression.right);
        let regex: RegExp;
        try {
          regex = new RegExp(regexText, "s");
        } catch {
          return false;
        }
        const match = regex.exec(left);
        if (match === null) {
          interpreter.state.setArray("BASH_REMATCH", new Map(), false);
          return false;
        }
        interpreter.state.setArray(
          "BASH_REMATCH",
          new Map(match.map((group, index) => [String(index), group ?? ""])),
          false,
        );
        return true;
      }
      const right = await interpreter.expander.string(expression.right);
      if (["-eq", "-ne", "-lt", "-le", "-gt", "-ge"].includes(op)) {
        const a = interpreter.expander.evaluate(left);
        const b = interpreter.expander.evaluate(right);
        return testBinary(interpreter, op, String(a), String(b));
      }
      return isBinaryOperator(op) ? testBinary(interpreter, op, left, right) : false;
    }
  }
}
