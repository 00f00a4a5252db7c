/** The safety facts an inventory adds about what it does not encode (reference §7.3). */

export const WARNINGS = {
  pipeline:
    "pipeline topology is not encoded: the stages of a pipeline are listed one after another",
  andOr: "`&&` / `||` relationships are not encoded: a listed command may not run",
  background:
    "background `&` is not encoded: a listed command may run concurrently with later ones",
  negation: "`!` negation is not encoded",
  time: "the `time` modifier is not encoded",
  substitution:
    "a command substitution's value is unknown until it runs; its commands are in its nested inspection",
  unquotedSubstitution:
    "an unquoted command substitution's value is also subject to word splitting and pathname expansion",
} as const;

export function forLoopWarning(variable: string): string {
  return `for loop over \`${variable}\`: the values are inspected before the flattened body, whose commands are listed once, not per iteration`;
}

export function findActionWarning(action: string, reason: string): string {
  return `find ${action}: ${reason}`;
}
