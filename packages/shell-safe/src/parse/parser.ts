import type {
  AndOrLink,
  AndOrList,
  Command,
  Operator,
  Pipeline,
  Redirection,
  Script,
  Word,
} from "./ast.js";
import { checkBraces } from "./brace-check.js";
import { checkCommandWords, checkProgramWord } from "./command-checks.js";
import { LABELS } from "./labels.js";
import { type ControlOperator, Lexer, type Token } from "./lexer.js";
import type { ParseLimits } from "./limits.js";
import { limitExceeded, malformed, unsupportedConstruct } from "./refusal.js";
import { isGlobWord, literalValue } from "./word-value.js";

/** Recursive descent over the token stream; throws a refusal signal on anything else. */
export class Parser {
  private readonly lexer: Lexer;
  private readonly limits: ParseLimits;
  private readonly source: string;
  private lookahead: Token;
  private commandCount = 0;
  private wordCount = 0;

  constructor(source: string, limits: ParseLimits) {
    this.source = source;
    this.limits = limits;
    this.lexer = new Lexer(source);
    this.lookahead = this.lexer.next();
  }

  parseScript(): Script {
    this.skipNewlines();
    if (this.atEnd()) throw malformed("empty input", 0, this.source.length);
    const lists: AndOrList[] = [];
    while (!this.atEnd()) {
      lists.push(this.parseAndOr());
      this.skipNewlines();
    }
    const first = lists[0];
    const last = lists[lists.length - 1];
    return {
      type: "script",
      source: this.source,
      lists,
      start: first?.start ?? 0,
      end: last?.end ?? 0,
    };
  }

  private atEnd(): boolean {
    return this.lookahead.type === "eof";
  }

  private advance(): Token {
    const token = this.lookahead;
    this.lookahead = this.lexer.next();
    return token;
  }

  private peekOperator(): ControlOperator | null {
    return this.lookahead.type === "operator" ? this.lookahead.op : null;
  }

  private takeOperator<Op extends ControlOperator>(op: Op): Operator<Op> {
    const token = this.advance();
    return {
      type: "operator",
      op,
      start: token.start,
      end: "end" in token ? token.end : token.start,
    };
  }

  private skipNewlines(): void {
    while (this.peekOperator() === "\n") this.advance();
  }

  private parseAndOr(): AndOrList {
    const head = this.parsePipeline();
    const tail: AndOrLink[] = [];
    for (;;) {
      const op = this.peekOperator();
      if (op !== "&&" && op !== "||") break;
      const operator = this.takeOperator(op);
      this.skipNewlines();
      tail.push({ operator, pipeline: this.parsePipeline() });
    }
    const op = this.peekOperator();
    let terminator: Operator<";" | "\n"> | null = null;
    if (op === ";" || op === "\n") terminator = this.takeOperator(op);
    else if (this.lookahead.type !== "eof") throw this.unexpected();
    const lastPipeline = tail[tail.length - 1]?.pipeline ?? head;
    const end = terminator?.end ?? lastPipeline.end;
    return { type: "and-or", head, tail, terminator, start: head.start, end };
  }

  private parsePipeline(): Pipeline {
    const stages: Command[] = [this.parseCommand()];
    const pipes: Operator<"|">[] = [];
    while (this.peekOperator() === "|") {
      pipes.push(this.takeOperator("|"));
      this.skipNewlines();
      stages.push(this.parseCommand());
    }
    const first = stages[0] as Command;
    const last = stages[stages.length - 1] as Command;
    return { type: "pipeline", stages, pipes, start: first.start, end: last.end };
  }

  private parseCommand(): Command {
    const words: Word[] = [];
    const redirections: Redirection[] = [];
    const start = this.lookahead.start;
    let end = start;
    for (;;) {
      const token = this.lookahead;
      if (token.type === "word") {
        if (words.length === 0) checkProgramWord(token.word);
        this.advance();
        words.push(this.countWord(token.word));
        end = token.word.end;
      } else if (token.type === "redirect" || token.type === "duplicate") {
        this.advance();
        const redirection = this.parseRedirection(token);
        redirections.push(redirection);
        end = redirection.end;
      } else {
        break;
      }
    }
    if (words.length === 0 && redirections.length === 0) throw this.unexpected();
    if (words.length === 0) throw malformed("redirection with no command", start, end);
    this.commandCount += 1;
    if (this.commandCount > this.limits.maxCommands) {
      throw limitExceeded(
        "command count",
        `more than ${this.limits.maxCommands} commands`,
        start,
        end,
      );
    }
    const command: Command = { type: "command", words, redirections, start, end };
    checkCommandWords(command);
    return command;
  }

  private countWord(word: Word): Word {
    this.wordCount += 1;
    if (this.wordCount > this.limits.maxWords) {
      throw limitExceeded(
        "word count",
        `more than ${this.limits.maxWords} words`,
        word.start,
        word.end,
      );
    }
    checkBraces(word);
    return word;
  }

  private parseRedirection(token: Token & { type: "redirect" | "duplicate" }): Redirection {
    if (token.type === "duplicate") {
      return {
        type: "redirection",
        kind: "duplicate",
        fd: 2,
        from: 1,
        start: token.start,
        end: token.end,
      };
    }
    const next = this.lookahead;
    if (next.type !== "word") {
      throw malformed("missing redirection target", token.start, token.operatorSpan.end);
    }
    this.advance();
    const target = this.countWord(next.word);
    if (isGlobWord(target)) throw unsupportedConstruct(LABELS.globTarget, target.start, target.end);
    if (literalValue(target) === "") {
      throw malformed("empty redirection target", target.start, target.end);
    }
    return {
      type: "redirection",
      kind: "file",
      fd: token.fd,
      explicitFd: token.explicitFd,
      operator: token.operator,
      operatorSpan: token.operatorSpan,
      target,
      start: token.start,
      end: target.end,
    };
  }

  private unexpected(): Error {
    const token = this.lookahead;
    if (token.type === "eof") return malformed("unexpected end of input", token.start, token.start);
    const end = "end" in token ? token.end : token.start + 1;
    const text =
      token.type === "operator" && token.op === "\n"
        ? "newline"
        : this.source.slice(token.start, end);
    return malformed(`unexpected \`${text}\` with nothing on one side`, token.start, end);
  }
}
