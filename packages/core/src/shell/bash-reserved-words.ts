/**
 * Bash 5.2's reserved words (`compgen -k`): syntax, not commands, when unquoted in
 * command position. One table for every engine that reads bash.
 */
export const BASH_RESERVED_WORDS: ReadonlySet<string> = new Set([
  "if",
  "then",
  "else",
  "elif",
  "fi",
  "case",
  "esac",
  "for",
  "select",
  "while",
  "until",
  "do",
  "done",
  "in",
  "function",
  "time",
  "{",
  "}",
  "!",
  "[[",
  "]]",
  "coproc",
]);
