// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are shell source, where ${NAME} is literal input.
import { describe, expect, it } from "vitest";
import type {
  Assignment,
  CompoundCommand,
  FunctionDefinition,
  Span,
  Word,
} from "../../src/index.js";
import {
  commands,
  compound,
  onlyCommand,
  parseOk,
  simple,
  text,
  wordTexts,
} from "../helpers/parse.js";

describe("simple commands", () => {
  it("splits assignments, words and redirections with exact offsets", () => {
    const source = "A=1 B+=x cmd arg >out 2>&1 last";
    const command = simple(source);
    expect(command.assignments.map((item) => [item.name, item.append, text(source, item)])).toEqual(
      [
        ["A", false, "A=1"],
        ["B", true, "B+=x"],
      ],
    );
    expect(wordTexts(source, command)).toEqual(["cmd", "arg", "last"]);
    expect(command.redirects.map((item) => text(source, item))).toEqual([">out", "2>&1"]);
    expect(text(source, command)).toBe(source);
  });

  it("reads an assignment value and a subscript", () => {
    const source = "a[i+1]=v$x";
    const assignment = simple(source).assignments[0] as Assignment;
    expect(assignment.name).toBe("a");
    expect(text(source, assignment.index as Word)).toBe("i+1");
    expect(text(source, assignment.value as Word)).toBe("v$x");
  });

  it("keeps an assignment after the command word as an argument", () => {
    const source = "echo a=1";
    expect(simple(source).assignments).toEqual([]);
    expect(wordTexts(source, simple(source))).toEqual(["echo", "a=1"]);
  });

  it("parses array literals with keyed elements, comments and newlines", () => {
    const source = "arr=(one [5]=five [k]+=x # note\n  'two words')";
    const assignment = simple(source).assignments[0] as Assignment;
    expect(assignment.value?.type).toBe("ArrayLiteral");
    if (assignment.value?.type !== "ArrayLiteral") return;
    expect(text(source, assignment.value)).toBe("(one [5]=five [k]+=x # note\n  'two words')");
    expect(
      assignment.value.elements.map((element) => [
        element.index === null ? null : text(source, element.index),
        element.append,
        text(source, element.value),
      ]),
    ).toEqual([
      [null, false, "one"],
      ["5", false, "five"],
      ["k", true, "x"],
      [null, false, "'two words'"],
    ]);
  });

  it("parses assignments given to declaration builtins", () => {
    const source = "declare -a list=(1 2) name=v plain";
    const command = simple(source);
    expect(command.words.map((word) => word.type)).toEqual([
      "Word",
      "Word",
      "Assignment",
      "Assignment",
      "Word",
    ]);
    expect(text(source, command.words[2] as Assignment)).toBe("list=(1 2)");
  });

  it.each([
    ["cat <in", "<", null, null, "in"],
    ["cat >out", ">", null, null, "out"],
    ["cat >>log", ">>", null, null, "log"],
    ["cat >|force", ">|", null, null, "force"],
    ["cat 3<>rw", "<>", 3, null, "rw"],
    ["cat 0<&3", "<&", 0, null, "3"],
    ["cat 2>&-", ">&", 2, null, "-"],
    ["cat &>both", "&>", null, null, "both"],
    ["cat &>>both", "&>>", null, null, "both"],
    ["cat <<<here", "<<<", null, null, "here"],
    ["exec {fd}>file", ">", null, "fd", "file"],
    ["exec {fd}>&-", ">&", null, "fd", "-"],
    ["cat 10>x", ">", 10, null, "x"],
  ])("redirection %s", (source, operator, fd, fdVariable, target) => {
    const redirect = simple(source).redirects[0];
    expect(redirect).toMatchObject({ operator, fd, fdVariable });
    expect(text(source, redirect?.target as Word)).toBe(target);
    expect(text(source, redirect as Span)).toBe(source.slice(source.indexOf(" ") + 1));
  });

  it("reads `2>&1>f` as two redirections", () => {
    const source = "echo a 2>&1>f";
    expect(simple(source).redirects.map((redirect) => text(source, redirect))).toEqual([
      "2>&1",
      ">f",
    ]);
  });

  it("allows a command made only of redirections or assignments", () => {
    expect(simple(">f").redirects).toHaveLength(1);
    expect(simple("a=1 >f").assignments).toHaveLength(1);
  });
});

describe("here-documents", () => {
  it("reads bodies in order after the line, with offsets of the body", () => {
    const source = "cat <<A <<'B'; echo after\none $x\nA\ntwo $y\nB\necho next\n";
    const script = parseOk(source);
    const [first, second] = commands(script);
    if (first?.type !== "SimpleCommand") throw new Error("expected a simple command");
    const [a, b] = first.redirects;
    expect(a?.heredoc).toMatchObject({ delimiter: "A", quoted: false, stripTabs: false });
    expect(text(source, a?.heredoc?.body as Word)).toBe("one $x\n");
    expect(a?.heredoc?.body.parts.map((part) => part.type)).toEqual([
      "Literal",
      "ParameterExpansion",
      "Literal",
    ]);
    expect(b?.heredoc).toMatchObject({ delimiter: "B", quoted: true });
    const bodyStart = source.indexOf("two");
    expect(b?.heredoc?.body.parts).toEqual([
      { type: "Literal", value: "two $y\n", start: bodyStart, end: bodyStart + 7 },
    ]);
    expect(second?.type).toBe("SimpleCommand");
    expect(commands(script).map((command) => text(source, command))).toEqual([
      "cat <<A <<'B'",
      "echo after",
      "echo next",
    ]);
  });

  it("strips leading tabs for <<- and matches a tab-indented delimiter", () => {
    const source = "cat <<-END\n\tindented $v\n\t\tmore\n\tEND\n";
    const heredoc = simple(source).redirects[0]?.heredoc;
    expect(heredoc?.stripTabs).toBe(true);
    const literals = heredoc?.body.parts
      .filter((part) => part.type === "Literal")
      .map((part) => part.type === "Literal" && part.value);
    expect(literals).toEqual(["indented ", "\n", "more\n"]);
  });

  it("treats any quoting of the delimiter as quoted and removes the quotes", () => {
    expect(simple('cat <<"E F"\nx\nE F\n').redirects[0]?.heredoc).toMatchObject({
      delimiter: "E F",
      quoted: true,
    });
    expect(simple("cat <<\\EOF\nx\nEOF\n").redirects[0]?.heredoc).toMatchObject({
      delimiter: "EOF",
      quoted: true,
    });
  });

  it("reads a body that reaches the end of input (bash warns, and accepts)", () => {
    const source = "cat <<EOF\nno end";
    expect(text(source, simple(source).redirects[0]?.heredoc?.body as Word)).toBe("no end");
  });

  it("reads a here-document inside a command substitution", () => {
    const source = "x=$(cat <<EOF\ninner\nEOF\n)";
    const value = simple(source).assignments[0]?.value as Word;
    const substitution = value.parts[0];
    expect(substitution?.type).toBe("CommandSubstitution");
    if (substitution?.type !== "CommandSubstitution") return;
    const inner = commands(substitution.script)[0];
    expect(inner?.type === "SimpleCommand" && inner.redirects[0]?.heredoc?.delimiter).toBe("EOF");
  });
});

describe("pipelines and lists", () => {
  it("records pipe operators, negation and time", () => {
    const source = "time -p ! a | b |& c";
    const pipeline = parseOk(source).body.statements[0]?.andOr.pipelines[0];
    expect(pipeline).toMatchObject({ negated: true, timed: "time -p", operators: ["|", "|&"] });
    expect(pipeline?.commands).toHaveLength(3);
    expect(text(source, pipeline as Span)).toBe(source);
  });

  it("accepts bare `time` and `!`, and `! !`", () => {
    expect(parseOk("time").body.statements[0]?.andOr.pipelines[0]).toMatchObject({
      timed: "time",
      commands: [],
    });
    expect(parseOk("! !").body.statements[0]?.andOr.pipelines[0]).toMatchObject({
      negated: false,
      commands: [],
    });
  });

  it("splits statements on ; & and newlines; && and || continue across newlines", () => {
    const source = "a && b ||\n c; d & e\n\nf &";
    const statements = parseOk(source).body.statements;
    expect(statements.map((statement) => [text(source, statement), statement.background])).toEqual([
      ["a && b ||\n c", false],
      ["d &", true],
      ["e", false],
      ["f &", true],
    ]);
    expect(statements[0]?.andOr.operators).toEqual(["&&", "||"]);
  });

  it("a pipe continues across a newline", () => {
    expect(parseOk("a |\n\n b").body.statements[0]?.andOr.pipelines[0]?.commands).toHaveLength(2);
  });
});

describe("compound commands", () => {
  it.each([
    ["{ a; b; }", "BraceGroup"],
    ["( a; b )", "Subshell"],
    ["if a; then b; elif c; then d; else e; fi", "If"],
    ["while a; do b; done", "While"],
    ["until a; do b; done", "While"],
    ["for x in 1 2; do b; done", "For"],
    ["for x; do b; done", "For"],
    ["for x in a; { b; }", "For"],
    ["for ((i = 0; i < 3; i++)); do b; done", "ArithmeticFor"],
    ["for ((;;)) { b; }", "ArithmeticFor"],
    ["select x in a b; do b; done", "Select"],
    ["case $x in a) b;; esac", "Case"],
    ["[[ -f x ]]", "Conditional"],
    ["(( x += 1 ))", "ArithmeticCommand"],
  ])("%s", (source, type) => {
    const body = compound(source);
    expect(body.type).toBe(type);
    expect(text(source, body)).toBe(source);
  });

  it("keeps the clauses of if/elif/else", () => {
    const source = "if a; then b; elif c; then d; else e; fi";
    const body = compound(source);
    if (body.type !== "If") throw new Error("not if");
    expect(
      body.clauses.map((clause) => [text(source, clause.condition), text(source, clause.body)]),
    ).toEqual([["a;", "b;"].map((item) => item.slice(0, -1)), ["c", "d"]]);
    expect(text(source, body.elseBody as Span)).toBe("e");
  });

  it("marks until loops", () => {
    const body = compound("until a; do b; done");
    expect(body.type === "While" && body.until).toBe(true);
  });

  it("reads the loop variable and words", () => {
    const source = "for name in a 'b c' $d\ndo :; done";
    const body = compound(source);
    if (body.type !== "For") throw new Error("not for");
    expect(body.variable).toMatchObject({ name: "name", start: 4, end: 8 });
    expect(body.words?.map((word) => text(source, word))).toEqual(["a", "'b c'", "$d"]);
    expect(compound("for x; do :; done")).toMatchObject({ words: null });
  });

  it("reads the three clauses of for ((;;))", () => {
    const source = "for ((i = 0; i < (3); i++)); do :; done";
    const body = compound(source);
    if (body.type !== "ArithmeticFor") throw new Error("not arithmetic for");
    expect([body.init, body.test, body.update].map((clause) => text(source, clause))).toEqual([
      "i = 0",
      " i < (3)",
      " i++",
    ]);
  });

  it("reads case items with every terminator", () => {
    const source = "case $x in\n  (a|b) one;;\n  c) two;&\n  *) three;;&\n  d) ;;\n  e) last\nesac";
    const body = compound(source);
    if (body.type !== "Case") throw new Error("not case");
    expect(text(source, body.word)).toBe("$x");
    expect(
      body.items.map((item) => [
        item.patterns.map((pattern) => text(source, pattern)),
        item.terminator,
      ]),
    ).toEqual([
      [["a", "b"], ";;"],
      [["c"], ";&"],
      [["*"], ";;&"],
      [["d"], ";;"],
      [["e"], null],
    ]);
    expect(body.items.map((item) => text(source, item))).toEqual([
      "(a|b) one;;",
      "c) two;&",
      "*) three;;&",
      "d) ;;",
      "e) last",
    ]);
  });

  it("lets reserved words be case patterns and arguments", () => {
    const source = "case x in if|esac) echo fi done;; esac";
    const body = compound(source);
    expect(
      body.type === "Case" && body.items[0]?.patterns.map((pattern) => text(source, pattern)),
    ).toEqual(["if", "esac"]);
  });

  it("attaches redirections to a compound command", () => {
    const source = "{ a; } >out 2>&1 | b";
    const [first] = commands(parseOk(source));
    expect((first as CompoundCommand).redirects.map((redirect) => text(source, redirect))).toEqual([
      ">out",
      "2>&1",
    ]);
    expect(text(source, first as CompoundCommand)).toBe("{ a; } >out 2>&1");
  });

  it("falls back from (( to nested subshells like bash", () => {
    const body = compound("((echo a); (echo b))");
    expect(body.type).toBe("Subshell");
  });
});

describe("functions", () => {
  it.each([
    ["f() { a; }", false],
    ["f () ( a )", false],
    ["f()\n{\n  a\n}", false],
    ["function f { a; }", true],
    ["function f() { a; }", true],
    ["function my-func.x ( ) { a; } >log", true],
  ])("%s", (source, keyword) => {
    const command = onlyCommand(source) as FunctionDefinition;
    expect(command).toMatchObject({ type: "FunctionDefinition", keyword });
    expect(command.body.type).toBe("CompoundCommand");
    expect(text(source, command)).toBe(source);
  });

  it("names the function", () => {
    expect(onlyCommand("function my-func.x { :; }")).toMatchObject({ name: "my-func.x" });
  });
});

describe("[[ … ]]", () => {
  it("builds the expression tree with precedence (|| over &&, ! binds tightest)", () => {
    const source = "[[ ! -f a || -n $b && ( c == d* ) ]]";
    const body = compound(source);
    if (body.type !== "Conditional") throw new Error("not conditional");
    const root = body.expression;
    expect(root.type).toBe("ConditionalLogical");
    if (root.type !== "ConditionalLogical") return;
    expect(root.operator).toBe("||");
    expect(root.left).toMatchObject({
      type: "ConditionalNot",
      operand: { type: "ConditionalUnary", operator: "-f" },
    });
    expect(root.right).toMatchObject({ type: "ConditionalLogical", operator: "&&" });
    expect(text(source, root)).toBe("! -f a || -n $b && ( c == d* )");
  });

  it("reads the right side of =~ as a regex word with parentheses and bars", () => {
    const source = "[[ $x =~ ^(a|b)+[0-9]{2}$ && y ]]";
    const body = compound(source);
    if (body.type !== "Conditional" || body.expression.type !== "ConditionalLogical")
      throw new Error("shape");
    const match = body.expression.left;
    expect(match.type === "ConditionalBinary" && text(source, match.right)).toBe(
      "^(a|b)+[0-9]{2}$",
    );
  });

  it.each(["<", ">", "==", "!=", "=", "-eq", "-nt", "-ef"])("binary operator %s", (operator) => {
    const source = `[[ a ${operator} b ]]`;
    const body = compound(source);
    expect(body.type === "Conditional" && body.expression).toMatchObject({
      type: "ConditionalBinary",
      operator,
    });
  });

  it("accepts newlines where bash does", () => {
    expect(compound("[[ a &&\n b ]]").type).toBe("Conditional");
    expect(compound("[[\n a == b\n ]]").type).toBe("Conditional");
  });
});
