/**
 * The `target` labels of refused constructs. Those of reference §3.3 are kept
 * verbatim; the rest name constructs the reference did not list (it passed them
 * through or reinterpreted them, which spec §7 forbids).
 */
export const LABELS = {
  commandSubstitution: "command substitution `$(`",
  arithmeticExpansion: "arithmetic expansion `$((`",
  backticks: "command substitution (backticks)",
  subshell: "subshell `( )`",
  processSubstitution: "process substitution `<( )` / `>( )`",
  background: "background `&`",
  heredoc: "heredoc/herestring `<<`",
  outputDuplication: "`>&` (fd duplication)",
  inputDuplication: "`<&` (fd duplication)",
  fdInput: "fd-number input redirection",
  fdDuplication: "fd duplication (only `2>&1` is supported)",
  fdNumber: "fd-number redirection (only 1>, 2>, 0<, 2>&1)",
  globTarget: "glob in a redirection target",
  bareDollar: "bare `$` (escape as `\\$` for a literal dollar)",
  variableName: "unsupported variable name",
  readWrite: "read-write redirection `<>`",
  clobber: "clobber redirection `>|`",
  namedFd: "named fd redirection `{name}>`",
  braceExpansion: "brace expansion `{…}`",
  tildeUser: "tilde prefix other than `~` and `~/` (`~user`, `~+`, `~-`)",
  tildeAssignment: "tilde after `=` or `:` (bash expands it in assignment-shaped words)",
  assignment: "environment assignment `NAME=…`",
  caseTerminator: "case terminator `;;`",
} as const;

export function keywordLabel(word: string): string {
  return `control keyword \`${word}\``;
}

export function builtinLabel(word: string): string {
  return `shell builtin \`${word}\``;
}
