/**
 * Compound commands: brace groups, subshells, `if`, `while`/`until`, `for`,
 * `for ((…))`, `case` (`;;` `;&` `;;&`), `(( ))`, `[[ ]]`, with their redirections.
 */
import type { CompoundCommand, List, SelectCommand } from "@agent-bridle/bash";
import { decodeShellBytes, matchPattern } from "@agent-bridle/bash";
import type { ExecContext } from "../exec-context.js";
import { type Fds, sinkOf, sourceOf } from "../io/io.js";
import { caughtByLoop, ExpansionError } from "../signals.js";
import { ReadonlyError } from "../state/state.js";
import { evaluateConditional } from "./conditional.js";
import { runDebugTrap } from "./debug-trap.js";
import { withRedirects } from "./redirect.js";
import { traceText } from "./trace.js";

export async function runCompound(
  interpreter: ExecContext,
  command: CompoundCommand,
  fds: Fds,
): Promise<number> {
  return withRedirects(interpreter, command.redirects, fds, (redirected) =>
    compoundBody(interpreter, command, redirected),
  );
}

async function condition(interpreter: ExecContext, list: List, fds: Fds): Promise<number> {
  interpreter.conditionDepth += 1;
  try {
    return await interpreter.list(list, fds);
  } finally {
    interpreter.conditionDepth -= 1;
  }
}

async function loopCondition(
  interpreter: ExecContext,
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
  interpreter: ExecContext,
  list: List,
  fds: Fds,
): Promise<"break" | "continue" | number> {
  interpreter.loopDepth += 1;
  try {
    return await interpreter.list(list, fds);
  } catch (signal) {
    return caughtByLoop(signal);
  } finally {
    interpreter.loopDepth -= 1;
  }
}

async function compoundBody(
  interpreter: ExecContext,
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
      return runSelect(interpreter, body, fds);
  }
}

/** One line of input (without its newline), waiting for a pipe's writer; null at the end. */
async function readLine(interpreter: ExecContext, fds: Fds): Promise<string | null> {
  const input = sourceOf(fds, 0);
  const bytes: number[] = [];
  for (;;) {
    const byte = await input.waitByte();
    if (byte === null) return bytes.length === 0 ? null : decodeShellBytes(Uint8Array.from(bytes));
    if (byte === 10) return decodeShellBytes(Uint8Array.from(bytes));
    bytes.push(byte);
    if (interpreter.signal?.aborted) return null;
  }
}

/**
 * `select name in words`: the numbered menu and `PS3` on stderr, a line from stdin into
 * `REPLY`, `name` the chosen word (empty when the answer is not a menu number), the body;
 * an empty line shows the menu again; end of input ends the loop with status 1.
 */
async function runSelect(interpreter: ExecContext, body: SelectCommand, fds: Fds) {
  const values: string[] = [];
  if (body.words === null) values.push(...interpreter.state.positional);
  else for (const word of body.words) values.push(...(await interpreter.expander.fields(word)));
  if (values.length === 0) return 0;
  const stderr = sinkOf(fds, 2);
  const menu = values.map((value, index) => `${index + 1}) ${value}\n`).join("");
  let status = 0;
  let showMenu = true;
  for (;;) {
    if (showMenu) stderr.write(menu);
    stderr.write(interpreter.state.get("PS3") ?? "#? ");
    const line = await readLine(interpreter, fds);
    if (line === null) {
      stderr.write("\n");
      return 1;
    }
    interpreter.state.set("REPLY", line);
    showMenu = line === "";
    if (showMenu) continue;
    const choice = /^\s*\d+\s*$/.test(line) ? Number(line) : 0;
    interpreter.state.set(body.variable.name, values[choice - 1] ?? "");
    const result = await loopBody(interpreter, body.body, fds);
    if (result === "break") return status;
    if (typeof result === "number") status = result;
  }
}
