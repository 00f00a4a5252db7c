/**
 * The absolute path of an operand: relative operands are joined to `cwd` without
 * normalising, so `..`, links and a trailing slash keep their meaning for the system.
 */
export function resolveOperand(cwd: string, operand: string): string {
  if (operand.startsWith("/")) return operand;
  return cwd.endsWith("/") ? `${cwd}${operand}` : `${cwd}/${operand}`;
}
