/**
 * Compound commands: brace groups, subshells, `if`, `while`/`until`, `for`,
 * `for ((…))`, `case` (`;;` `;&` `;;&`), `(( ))`, `[[ ]]`, with their redirections.
 */
import type { CompoundCommand, List } from "../parse/ast-command.js";
import { evaluateConditional } from "./conditional.js";
import { runDebugTrap } from "./debug-trap.js";
import type { Interpreter } from "./interpreter.js";
import type { Fds } from "./io.js";
import { matchPattern } from "./pattern.js";
import { withRedirects } from "./redirect.js";
import { ExpansionError, LoopSignal } from "./signals.js";
import { ReadonlyError } from "./state.js";
import { traceText } from "./trace.js";

export async function runCompound(
  interpreter: Interpreter,
  command: CompoundCommand,
  fds: Fds,
): Promise<number> {
  return withRedirects(interpreter, command.redirects, fds, (redirected) =>
    compoundBody(interpreter, command, redirected),
  );
}

async function condition(interpreter: Interpreter, list: List, fds: Fds): Promise<number> {
  interpreter.conditionDepth += 1;
  try {
    return await interpreter.list(list, fds);
  } finally {
    interpreter.conditionDepth -= 1;
  }
}

async function loopCondition(
  interpreter: Interpreter,
  list: List,
  fds: Fds,
): Promise<"break" | "continue" | number> {
  interpreter.conditionDepth += 1;
  try {
    return await loopBody(interpreter, list, fds);
  } finally {
    interpreter.conditionDepth -= 1;
  }
}

async function loopBody(
  interpreter: Interpreter,
  list: List,
  fds: Fds,
): Promise<"break" | "continue" | number> {
  interpreter.loopDepth += 1;
  try {
    return await interpreter.list(list, fds);
  } catch (signal) {
    if (signal instanceof LoopSignal) {
      if (signal.levels > 1) {
        signal.levels -= 1;
        throw signal;
      }
      return signal.kind;
    }
    throw signal;
  } finally {
    interpreter.loopDepth -= 1;
  }
}

async function compoundBody(
  interpreter: Interpreter,
  command: CompoundCommand,
  fds: Fds,
): Promise<number> {
  const body = command.body;
  switch (body.type) {
    case "BraceGroup":
      return interpreter.list(body.body, fds);
    case "Subshell": {
      const child = interpreter.fork();
      return child.subshellRun(() => child.list(body.body, fds), fds);
    }
    case "If": {
      for (const clause of body.clauses) {
        if ((await condition(interpreter, clause.condition, fds)) === 0)
          return interpreter.list(clause.body, fds);
      }
      return body.elseBody === null ? 0 : interpreter.list(body.elseBody, fds);
    }
    case "While": {
      let status = 0;
      for (;;) {
        const test = await loopCondition(interpreter, body.condition, fds);
        if (test === "break") break;
        if (test === "continue") continue;
        if ((test === 0) === body.until) break;
        const result = await loopBody(interpreter, body.body, fds);
        if (result === "break") break;
        if (typeof result === "number") status = result;
      }
      return status;
    }
    case "For": {
      const values: string[] = [];
      if (body.words === null) values.push(...interpreter.state.positional);
      else for (const word of body.words) values.push(...(await interpreter.expander.fields(word)));
      let status = 0;
      const loopVariable = interpreter.state.lookupRaw(body.variable.name);
      const header =
        body.words === null
          ? `for ${body.variable.name}`
          : `for ${body.variable.name} in ${body.words.map((word) => interpreter.code.text.slice(word.start, word.end)).join(" ")}`;
      for (const value of values) {
        if (interpreter.state.traps.has("DEBUG"))
          await runDebugTrap(interpreter, command, fds, true, header);
        if (body.words !== null) traceText(interpreter, fds, header);
        if (loopVariable?.nameref) {
          if (loopVariable.readonly) throw new ReadonlyError(body.variable.name);
          loopVariable.value = value;
          loopVariable.declaredOnly = false;
        } else interpreter.state.set(body.variable.name, value);
        const result = await loopBody(interpreter, body.body, fds);
        if (result === "break") break;
        if (typeof result === "number") status = result;
      }
      return status;
    }
    case "ArithmeticFor": {
      let status = 0;
      await interpreter.expander.arithmetic(body.init);
      for (;;) {
        const testText = await interpreter.expander.quotedString(body.test.parts);
        if (testText.trim() !== "" && interpreter.expander.evaluate(testText) === 0n) break;
        const result = await loopBody(interpreter, body.body, fds);
        if (result === "break") break;
        if (typeof result === "number") status = result;
        await interpreter.expander.arithmetic(body.update);
      }
      return status;
    }
    case "Case": {
      const word = await interpreter.expander.string(body.word);
      let status = 0;
      let fallThrough = false;
      for (const item of body.items) {
        let matched = fallThrough;
        if (!matched) {
          for (const pattern of item.patterns) {
            if (matchPattern(await interpreter.expander.pattern(pattern), word)) {
              matched = true;
              break;
            }
          }
        }
        if (!matched) continue;
        status = await interpreter.list(item.body, fds);
        if (item.terminator === ";&") fallThrough = true;
        else if (item.terminator === ";;&") fallThrough = false;
        else return status;
      }
      return status;
    }
    case "ArithmeticCommand": {
      const text = await interpreter.expander.quotedString(body.expression.parts);
      try {
        return interpreter.expander.evaluate(text) === 0n ? 1 : 0;
      } catch (error) {
        if (error instanceof ExpansionError && error.kind !== "fatal") {
          interpreter.error(fds, `((: ${error.message}`);
          return 1;
        }
        throw error;
      }
    }
    case "Conditional":
      return (await evaluateConditional(interpreter, body.expression)) ? 0 : 1;
    case "Select":
      interpreter.error(fds, "select: not supported yet");
      return 1;
  }
}
