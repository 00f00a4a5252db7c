/** Paths the interpreter hands to its gate: absolute, resolved against the shell's cwd. */
import { resolve } from "node:path";

/** `operand` made absolute against `cwd` (lexically, as the gate expects). */
export function resolvePath(cwd: string, operand: string): string {
  return resolve(cwd, operand);
}
