/** `caller [N]`: the line, function and file of a call on the stack (as bash 5.2). */

import { callStackVariable } from "../expand/parameter-expansion.js";
import type { Builtin } from "./builtin-context.js";

export const caller: Builtin = (context, args) => {
  const state = context.state;
  const lines = callStackVariable(state, "BASH_LINENO") ?? [];
  const sources = callStackVariable(state, "BASH_SOURCE") ?? [];
  const names = callStackVariable(state, "FUNCNAME") ?? [];
  if (lines.length === 0) return 1;
  const operand = args[0];
  if (operand === undefined) {
    context.stdout.write(`${lines[0] ?? "NULL"} ${sources[1] ?? "NULL"}\n`);
    return 0;
  }
  if (!/^[0-9]+$/.test(operand)) {
    context.error(`caller: ${operand}: invalid number`);
    context.stderr.write("caller: usage: caller [expr]\n");
    return 2;
  }
  const frame = Number(operand);
  const line = lines[frame];
  const source = sources[frame + 1];
  const name = names[frame + 1];
  if (line === undefined || source === undefined || name === undefined) return 1;
  context.stdout.write(`${line} ${name} ${source}\n`);
  return 0;
};
