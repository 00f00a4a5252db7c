import { existsSync } from "node:fs";
import { bridleAgentsTools } from "@agent-bridle/adapters/openai-agents";
import { waitFor } from "@agent-bridle-tools/test-kit";
import { Agent, Runner } from "@openai/agents";
import { describe, expect, it } from "vitest";
import { ScriptedAgentsModel } from "./helpers/agents-model.js";
import { type Project, useProjects } from "./helpers/project.js";
import { FINAL_ANSWER, type Script } from "./helpers/scripted-calls.js";
import { liveSleepers, SLEEPERS_CMD } from "./helpers/sleepers.js";

// The Agents SDK's own agent loop (`Runner.run`) with a stub of its `Model` interface,
// scripted to call the registry's tools. Linux only: the bash engine under the launcher,
// and /proc to see process trees.
const newProject = useProjects();
const runner = new Runner({ tracingDisabled: true });

function agentFor(project: Project, script: Script) {
  const model = new ScriptedAgentsModel(script);
  const agent = new Agent({
    name: "worker",
    model,
    tools: bridleAgentsTools({ registry: project.registry, grant: project.grant }),
  });
  return { model, agent };
}

describe.skipIf(process.platform !== "linux")(
  "OpenAI Agents SDK: Runner.run with bridleAgentsTools",
  () => {
    it("gives the model stdout, stderr and the exit code, a file it read, and writes a file", async () => {
      const project = newProject();
      const { model, agent } = agentFor(project, [
        [{ tool: "shell", input: { cmd: "echo to-stdout; echo to-stderr >&2; exit 3" } }],
        [{ tool: "read_file", input: { path: "in.txt" } }],
        [{ tool: "write_file", input: { path: "made.txt", content: "written by the model\n" } }],
      ]);
      const result = await runner.run(agent, "work");
      expect(result.finalOutput).toBe(FINAL_ANSWER);
      const [shell, read, write] = model.outputsSeen();
      expect(shell?.text).toMatch(/^exit code: 3\n/);
      expect(shell?.text).toContain("--- stdout ---\nto-stdout\n");
      expect(shell?.text).toContain("--- stderr ---\nto-stderr\n");
      expect(read?.text).toContain("hello from in.txt");
      expect(write?.text).toContain('"bytes_written":21');
      expect(project.read("made.txt")).toBe("written by the model\n");
    });

    it("gives the model the denial of each refused call, and runs nothing", async () => {
      const project = newProject();
      const { model, agent } = agentFor(project, [
        [{ tool: "shell", input: { cmd: "touch made-by-shell" } }],
        [{ tool: "write_file", input: { path: `${project.outside}/planted.txt`, content: "x" } }],
        [{ tool: "read_file", input: { path: `${project.outside}/secret.txt` } }],
        [{ tool: "shell", input: { cmd: "echo ran > ran.txt", cwd: project.outside } }],
      ]);
      await runner.run(agent, "work");
      const [shell, write, read, elsewhere] = model.outputsSeen();
      expect(shell?.text).toMatch(/^exit code: 126\n/);
      expect(shell?.text).toContain(
        '- [EXEC_NOT_GRANTED] denied: exec of "touch" is not within the granted authority',
      );
      expect(project.has("made-by-shell")).toBe(false);
      expect(write?.text).toContain("not within the granted fs_write scope");
      expect(existsSync(`${project.outside}/planted.txt`)).toBe(false);
      expect(read?.text).toContain("not within the granted fs_read scope");
      expect(read?.text).not.toContain("outside the grant");
      // A shell call in a directory outside fs_read is refused before anything starts.
      expect(elsewhere?.text).toContain("not within the granted fs_read scope");
      expect(project.has("ran.txt")).toBe(false);
      expect(project.programsSpawned()).toEqual([]);
    });

    it("charges max_calls exactly across tools: the call after the budget is refused and runs nothing", async () => {
      const project = newProject({ maxCalls: 2 });
      const { model, agent } = agentFor(project, [
        [{ tool: "shell", input: { cmd: "echo first" } }],
        [{ tool: "read_file", input: { path: "in.txt" } }],
        [{ tool: "write_file", input: { path: "third.txt", content: "x" } }],
      ]);
      await runner.run(agent, "work");
      const [shell, read, write] = model.outputsSeen();
      expect(shell?.text).toContain("first");
      expect(read?.text).toContain("hello from in.txt");
      expect(write).toEqual({
        tool: "write_file",
        text: "denied: call budget (max_calls) exhausted",
      });
      expect(project.has("third.txt")).toBe(false);
      expect(project.grant.remainingCalls).toBe(0);
    });

    it("an aborted run kills the call's process tree", async () => {
      const project = newProject();
      const { agent } = agentFor(project, [[{ tool: "shell", input: { cmd: SLEEPERS_CMD } }]]);
      const controller = new AbortController();
      const settled = runner.run(agent, "work", { signal: controller.signal }).then(
        () => "resolved",
        () => "rejected",
      );
      await waitFor(() => liveSleepers().length === 2);
      controller.abort();
      expect(await settled).toBe("rejected");
      await waitFor(() => liveSleepers().length === 0);
    });
  },
);
