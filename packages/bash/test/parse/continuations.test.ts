import { describe, expect, it } from "vitest";
import { parseBash, type Script, type SimpleCommand } from "../../src/index.js";

function firstCommand(source: string): SimpleCommand {
  const result = parseBash(source);
  if (!result.ok) throw new Error(result.error.message);
  const script: Script = result.script;
  const command = script.body.statements[0]?.andOr.pipelines[0]?.commands[0];
  if (command?.type !== "SimpleCommand") throw new Error("not a simple command");
  return command;
}

// bash removes a backslash-newline before it reads a token, so a continuation inside a
// parameter name, after `$` or inside an fd prefix joins the two halves. Checked with
// bash 5.2: `echo $HO\<newline>ME` prints $HOME, `echo x 2\<newline>>/dev/null` prints x
// (fd 2 redirected, not an argument 2), `echo $\<newline>(echo y)` prints y. The safe
// subset's differential against real bash found the first two.
describe("line continuations inside a token", () => {
  it("join a parameter name: $HO\\<newline>ME is $HOME", () => {
    const part = firstCommand("echo $HO\\\nME/x").words[1];
    expect(part?.type === "Word" && part.parts.map((item) => item.type)).toEqual([
      "ParameterExpansion",
      "Literal",
    ]);
    const parameter = part?.type === "Word" ? part.parts[0] : undefined;
    expect(parameter).toMatchObject({ parameter: "HOME", start: 5, end: 12 });
  });

  it("join an fd prefix to its operator: 2\\<newline>>f redirects fd 2", () => {
    const command = firstCommand("cmd 2\\\n>err");
    expect(command.words).toHaveLength(1);
    expect(command.redirects).toMatchObject([{ fd: 2, operator: ">", start: 4, end: 11 }]);
  });

  it("join $ to ( : $\\<newline>(id) is a command substitution", () => {
    const word = firstCommand("echo $\\\n(id)").words[1];
    expect(word?.type === "Word" && word.parts[0]).toMatchObject({
      type: "CommandSubstitution",
      start: 5,
      end: 12,
    });
  });

  it("leave a name that ends before the continuation alone: $A\\<newline>-x", () => {
    const word = firstCommand("echo $A\\\n-x").words[1];
    expect(word?.type === "Word" && word.parts[0]).toMatchObject({
      type: "ParameterExpansion",
      parameter: "A",
      end: 7,
    });
  });
});
