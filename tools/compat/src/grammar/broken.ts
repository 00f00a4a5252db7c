/**
 * Broken constructs: each is a syntax error wherever a command may stand, whatever comes
 * after it (an operator, a separator, a newline, a closing word), so a script holding one
 * must be refused by bash and by our parser alike. Unterminated quotes and substitutions
 * only end a script (`unterminated`): anywhere else later text could close them.
 *
 * Excluded: a loop variable that is not a name (`for 1 in a`, `for $x in a`). bash parses
 * it and fails when the loop runs ("not a valid identifier"); our parser refuses it at
 * once (the AST's loop variable is a name).
 */
import type { Grammar } from "./grammar.js";

export function brokenCommand(grammar: Grammar): string {
  const { random } = grammar;
  const list = (): string => grammar.list();
  return random.weighted<string>([
    [1, () => `if ${list()}; then ${list()}; fi fi`],
    [1, () => "( )"],
    [1, () => "{ }"],
    [1, () => `${list()} ${random.pick(["&&", "||", "|"])} ${random.pick([";", "&", "|", ")"])}`],
    [1, () => `| ${grammar.command()}`],
    [1, () => `${random.pick(["then", "do", "fi", "done", "esac", "}"])} x`],
    [1, () => `echo ${random.pick([">", "<", ">>", "2>", "<<", "<<<", "&>"])}`],
    [1, () => `f() ${random.pick(["echo x", "x=1", "a | b"])}`],
    [1, () => `while ${list()}; ${list()}; done`],
    [1, () => `case a in b c) d;; esac`],
    [1, () => `if ${list()}; then fi`],
    [1, () => `while ${list()}; do done`],
    [1, () => "x=(a (b))"],
    // Not `[[ ]]`: `bash -n` exits 0 without a word on it, though bash refuses it (with
    // "unexpected token `]]'") when it reads it to run, as `eval` and our parser do.
    [1, () => `[[ ${random.pick(["a b", "a == b c", "( a", "&& a", "a -eq", "-n a b"])} ]]`],
    [1, () => random.pick([";", "&", ";;", ";&"])],
    [1, () => "function"],
    [1, () => `${grammar.word()} ) x`],
    [1, () => "echo $(for)"],
    [1, () => `{ ${list()} }`],
  ]);
}

/** An unterminated quote, substitution or array at the end of a script. */
export function unterminated(grammar: Grammar): string {
  return grammar.random.pick([
    " 'abc",
    ' "abc',
    " $(echo",
    " ${x",
    " $((1",
    " `echo",
    " $'a",
    " x=(1 2",
    " <(true",
    ' "$(echo ")',
  ]);
}
