/**
 * Function definitions: `name()`, `name ()`, `function name`, `function name()`, with a
 * brace group, a subshell or another compound command as the body.
 */
import { compound } from "./compound.js";
import { newline } from "./continuations.js";
import type { Grammar } from "./grammar.js";

const NAMES = ["g", "h_1", "do_it", "a-b", "a.b", "f2"];

export function functionDefinition(grammar: Grammar): string {
  const { random } = grammar;
  const name = random.pick(NAMES);
  const head = random.pick([
    `${name}()`,
    `${name} ()`,
    `function ${name}`,
    `function ${name}()`,
    `function ${name} ()`,
  ]);
  const gap = random.pick([" ", "", "newline"]);
  // In source order: a newline writes the here-document bodies queued before it.
  const before = gap === "newline" ? (grammar.inline ? " " : newline(grammar)) : gap;
  const body = compound(grammar);
  // `function name` needs a blank before its body.
  return `${head}${before === "" && !head.endsWith(")") ? " " : before}${body}`;
}
