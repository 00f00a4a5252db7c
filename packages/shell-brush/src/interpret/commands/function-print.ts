/**
 * Functions printed as bash prints them (`declare -f`, `type`): `name () ` then the body
 * re-laid out with four-space indents, one command a line, `;` between commands. Words
 * keep their source text; compound commands follow bash's layout.
 */
import type {
  AndOr,
  Command,
  CompoundCommand,
  FunctionDefinition,
  List,
  Redirect,
  SimpleCommand,
  Span,
} from "@agent-bridle/bash";

const STEP = "    ";

class Printer {
  constructor(private readonly text: string) {}

  private slice(span: Span): string {
    return this.text.slice(span.start, span.end);
  }

  private redirect(redirect: Redirect): string {
    const fd = redirect.fdVariable !== null ? `{${redirect.fdVariable}}` : (redirect.fd ?? "");
    const target = this.slice(redirect.target);
    if (redirect.operator === ">&" || redirect.operator === "<&")
      return `${fd}${redirect.operator}${target}`;
    if (redirect.heredoc !== null) return `${fd}${redirect.operator} ${redirect.heredoc.delimiter}`;
    return `${fd}${redirect.operator} ${target}`;
  }

  private simple(command: SimpleCommand): string {
    const parts = [
      ...command.assignments.map((assignment) => this.slice(assignment)),
      ...command.words.map((word) => this.slice(word)),
      ...command.redirects.map((redirect) => this.redirect(redirect)),
    ];
    return parts.join(" ");
  }

  /** A list's statements, each on its own line at `indent`, `;` between them. */
  list(list: List, indent: string): string {
    return list.statements
      .map((statement, index) => {
        const body = this.andOr(statement.andOr, indent);
        const last = index === list.statements.length - 1;
        return `${indent}${body}${statement.background ? " &" : last ? "" : ";"}`;
      })
      .join("\n");
  }

  /** A condition list on one line (`if a; b; then`). */
  private inline(list: List, indent: string): string {
    return list.statements
      .map((statement) => this.andOr(statement.andOr, indent) + (statement.background ? " &" : ""))
      .join("; ");
  }

  private andOr(andOr: AndOr, indent: string): string {
    let out = "";
    for (const [index, pipeline] of andOr.pipelines.entries()) {
      if (index > 0) out += ` ${andOr.operators[index - 1]} `;
      if (pipeline.negated) out += "! ";
      out += pipeline.commands
        .map((command, position) =>
          position === 0
            ? this.command(command, indent)
            : ` ${pipeline.operators[position - 1]} ${this.command(command, indent)}`,
        )
        .join("");
    }
    return out;
  }

  command(command: Command, indent: string): string {
    if (command.type === "SimpleCommand") return this.simple(command);
    if (command.type === "FunctionDefinition") return this.slice(command);
    const redirects = command.redirects.map((redirect) => ` ${this.redirect(redirect)}`).join("");
    return this.compound(command, indent) + redirects;
  }

  private compound(command: CompoundCommand, indent: string): string {
    const body = command.body;
    const inner = indent + STEP;
    switch (body.type) {
      case "BraceGroup":
        return `{ \n${this.list(body.body, inner)}\n${indent}}`;
      case "Subshell":
        return `( ${this.list(body.body, indent).trimStart()} )`;
      case "If": {
        const [first, ...rest] = body.clauses;
        if (first === undefined) return this.slice(body);
        let out = `if ${this.inline(first.condition, indent)}; then\n${this.list(first.body, inner)};\n`;
        if (rest.length > 0 || body.elseBody !== null) {
          const nested: CompoundCommand = {
            ...command,
            redirects: [],
            body: { ...body, clauses: rest },
          };
          const elseText =
            rest.length > 0
              ? `${inner}${this.compound(nested, inner)};`
              : `${this.list(body.elseBody as List, inner)};`;
          out += `${indent}else\n${elseText}\n`;
        }
        return `${out}${indent}fi`;
      }
      case "While":
        return `${body.until ? "until" : "while"} ${this.inline(body.condition, indent)}; do\n${this.list(body.body, inner)};\n${indent}done`;
      case "For":
      case "Select": {
        const words =
          body.words === null ? "" : ` in ${body.words.map((word) => this.slice(word)).join(" ")}`;
        const keyword = body.type === "For" ? "for" : "select";
        return `${keyword} ${body.variable.name}${words};\n${indent}do\n${this.list(body.body, inner)};\n${indent}done`;
      }
      case "Case": {
        const items = body.items
          .map(
            (item) =>
              `${inner}${item.patterns.map((pattern) => this.slice(pattern)).join(" | ")})\n` +
              `${this.list(item.body, inner + STEP)}\n${inner}${item.terminator ?? ";;"}`,
          )
          .join("\n");
        return `case ${this.slice(body.word)} in \n${items}\n${indent}esac`;
      }
      default:
        return this.slice(body);
    }
  }
}

/** `name () \n{ \n    …\n}` for `fn`, whose source text is `text`. */
export function printFunction(fn: FunctionDefinition, text: string): string {
  const printer = new Printer(text);
  const body = fn.body;
  if (body.body.type === "BraceGroup") return `${fn.name} () \n${printer.command(body, "")}`;
  return `${fn.name} () \n{ \n${STEP}${printer.command(body, STEP)}\n}`;
}
