import { existsSync } from "node:fs";
import { bridleToolSet } from "@agent-bridle/adapters/ai";
import { generateText, stepCountIs } from "ai";
import { describe, expect, it } from "vitest";
import { resultsSeen, scriptedModel } from "./helpers/ai-model.js";
import { useProjects } from "./helpers/project.js";
import { FINAL_ANSWER } from "./helpers/scripted-calls.js";

// The AI SDK's own agent loop (`generateText` with steps) and its own mock language model,
// scripted to call the registry's tools through `bridleToolSet`. The bash engine and its
// kernel boundary are Linux's (macOS's Seatbelt backend is untested in CI).
const newProject = useProjects();

describe.skipIf(process.platform !== "linux")("AI SDK: generateText with bridleToolSet", () => {
  it("gives the model stdout, stderr and the exit code of a shell call, a file it read, and writes a file", async () => {
    const project = newProject();
    const model = scriptedModel([
      [{ tool: "shell", input: { cmd: "echo to-stdout; echo to-stderr >&2; exit 3" } }],
      [{ tool: "read_file", input: { path: "in.txt" } }],
      [{ tool: "write_file", input: { path: "made.txt", content: "written by the model\n" } }],
    ]);
    const result = await generateText({
      model,
      tools: bridleToolSet({ registry: project.registry, grant: project.grant }),
      prompt: "work",
      stopWhen: stepCountIs(10),
    });
    expect(result.text).toBe(FINAL_ANSWER);
    const [shell, read, write] = resultsSeen(model);
    expect(shell?.output.type).toBe("text");
    expect(shell?.output.value).toMatch(/^exit code: 3\n/);
    expect(shell?.output.value).toContain("--- stdout ---\nto-stdout\n");
    expect(shell?.output.value).toContain("--- stderr ---\nto-stderr\n");
    expect(read?.output.value).toContain("hello from in.txt");
    expect(write?.output.type).toBe("text");
    expect(project.read("made.txt")).toBe("written by the model\n");
  });

  it("gives the model the denial of each refused call, and runs nothing", async () => {
    const project = newProject();
    const model = scriptedModel([
      [{ tool: "shell", input: { cmd: "touch made-by-shell" } }],
      [{ tool: "write_file", input: { path: `${project.outside}/planted.txt`, content: "x" } }],
      [{ tool: "read_file", input: { path: `${project.outside}/secret.txt` } }],
      [{ tool: "shell", input: { cmd: "echo ran > ran.txt", cwd: project.outside } }],
    ]);
    await generateText({
      model,
      tools: bridleToolSet({ registry: project.registry, grant: project.grant }),
      prompt: "work",
      stopWhen: stepCountIs(10),
    });
    const [shell, write, read, elsewhere] = resultsSeen(model);
    // The shell ran (bash went on after the refused program, status 126) and reports it.
    expect(shell?.output.value).toMatch(/^exit code: 126\n/);
    expect(shell?.output.value).toContain(
      '- [EXEC_NOT_GRANTED] denied: exec of "touch" is not within the granted authority',
    );
    expect(project.has("made-by-shell")).toBe(false);
    expect(write?.output).toEqual({
      type: "execution-denied",
      reason: expect.stringContaining("not within the granted fs_write scope"),
    });
    expect(read?.output).toEqual({
      type: "execution-denied",
      reason: expect.stringContaining("not within the granted fs_read scope"),
    });
    expect(JSON.stringify(resultsSeen(model))).not.toContain("outside the grant");
    // A shell call in a directory outside fs_read is refused before anything starts.
    expect(elsewhere?.output).toEqual({
      type: "execution-denied",
      reason: expect.stringContaining("not within the granted fs_read scope"),
    });
    expect(project.has("ran.txt")).toBe(false);
    expect(project.programsSpawned()).toEqual([]);
    expect(existsSync(`${project.outside}/planted.txt`)).toBe(false);
  });

  it("charges max_calls exactly across tools: the call after the budget is refused and runs nothing", async () => {
    const project = newProject({ maxCalls: 2 });
    const model = scriptedModel([
      [{ tool: "shell", input: { cmd: "echo first" } }],
      [{ tool: "read_file", input: { path: "in.txt" } }],
      [{ tool: "write_file", input: { path: "third.txt", content: "x" } }],
    ]);
    await generateText({
      model,
      tools: bridleToolSet({ registry: project.registry, grant: project.grant }),
      prompt: "work",
      stopWhen: stepCountIs(10),
    });
    const [shell, read, write] = resultsSeen(model);
    expect(shell?.output.value).toContain("first");
    expect(read?.output.value).toContain("hello from in.txt");
    expect(write?.output).toEqual({
      type: "execution-denied",
      reason: "denied: call budget (max_calls) exhausted",
    });
    expect(project.has("third.txt")).toBe(false);
    expect(project.grant.remainingCalls).toBe(0);
  });
});
