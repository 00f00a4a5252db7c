import { existsSync } from "node:fs";
import { bridleLangChainTools } from "@agent-bridle/adapters/langchain";
import { waitFor } from "@agent-bridle-tools/test-kit";
import { createAgent } from "langchain";
import { describe, expect, it } from "vitest";
import { scriptedChatModel, toolMessagesSeen } from "./helpers/langchain-model.js";
import { useProjects } from "./helpers/project.js";
import { FINAL_ANSWER } from "./helpers/scripted-calls.js";
import { liveSleepers, SLEEPERS_CMD } from "./helpers/sleepers.js";

// LangChain's own agent loop (`createAgent`, a LangGraph ReAct graph) and its fake
// tool-calling chat model, scripted to call the registry's tools. Linux only: the bash
// engine under the launcher, and /proc to see process trees.
const newProject = useProjects();

describe.skipIf(process.platform !== "linux")(
  "LangChain.js: createAgent with bridleLangChainTools",
  () => {
    it("gives the model stdout, stderr and the exit code, a file it read, and writes a file", async () => {
      const project = newProject();
      const model = scriptedChatModel([
        [{ tool: "shell", input: { cmd: "echo to-stdout; echo to-stderr >&2; exit 3" } }],
        [{ tool: "read_file", input: { path: "in.txt" } }],
        [{ tool: "write_file", input: { path: "made.txt", content: "written by the model\n" } }],
      ]);
      const agent = createAgent({
        model,
        tools: bridleLangChainTools({ registry: project.registry, grant: project.grant }),
      });
      const state = await agent.invoke({ messages: [{ role: "user", content: "work" }] });
      expect(state.messages.at(-1)?.content).toBe(FINAL_ANSWER);
      const [shell, read, write] = toolMessagesSeen(model);
      expect(shell?.text).toMatch(/^exit code: 3\n/);
      expect(shell?.text).toContain("--- stdout ---\nto-stdout\n");
      expect(shell?.text).toContain("--- stderr ---\nto-stderr\n");
      expect(shell?.status).toBe("success");
      expect(read?.text).toContain("hello from in.txt");
      expect(write?.status).toBe("success");
      expect(project.read("made.txt")).toBe("written by the model\n");
    });

    it("gives the model the denial of each refused call, and runs nothing", async () => {
      const project = newProject();
      const model = scriptedChatModel([
        [{ tool: "shell", input: { cmd: "touch made-by-shell" } }],
        [{ tool: "write_file", input: { path: `${project.outside}/planted.txt`, content: "x" } }],
        [{ tool: "read_file", input: { path: `${project.outside}/secret.txt` } }],
        [{ tool: "shell", input: { cmd: "echo ran > ran.txt", cwd: project.outside } }],
      ]);
      const agent = createAgent({
        model,
        tools: bridleLangChainTools({ registry: project.registry, grant: project.grant }),
      });
      await agent.invoke({ messages: [{ role: "user", content: "work" }] });
      const [shell, write, read, elsewhere] = toolMessagesSeen(model);
      expect(shell?.text).toMatch(/^exit code: 126\n/);
      expect(shell?.text).toContain(
        '- [EXEC_NOT_GRANTED] denied: exec of "touch" is not within the granted authority',
      );
      expect(project.has("made-by-shell")).toBe(false);
      expect(write).toMatchObject({ status: "error" });
      expect(write?.text).toContain("not within the granted fs_write scope");
      expect(existsSync(`${project.outside}/planted.txt`)).toBe(false);
      expect(read).toMatchObject({ status: "error" });
      expect(read?.text).toContain("not within the granted fs_read scope");
      expect(read?.text).not.toContain("outside the grant");
      // A shell call in a directory outside fs_read is refused before anything starts.
      expect(elsewhere?.text).toContain("not within the granted fs_read scope");
      expect(project.has("ran.txt")).toBe(false);
      expect(project.programsSpawned()).toEqual([]);
    });

    it("charges max_calls exactly across tools: the call after the budget is refused and runs nothing", async () => {
      const project = newProject({ maxCalls: 2 });
      const model = scriptedChatModel([
        [{ tool: "shell", input: { cmd: "echo first" } }],
        [{ tool: "read_file", input: { path: "in.txt" } }],
        [{ tool: "write_file", input: { path: "third.txt", content: "x" } }],
      ]);
      const agent = createAgent({
        model,
        tools: bridleLangChainTools({ registry: project.registry, grant: project.grant }),
      });
      await agent.invoke({ messages: [{ role: "user", content: "work" }] });
      const [shell, read, write] = toolMessagesSeen(model);
      expect(shell?.text).toContain("first");
      expect(read?.text).toContain("hello from in.txt");
      expect(write).toEqual({
        tool: "write_file",
        text: "denied: call budget (max_calls) exhausted",
        status: "error",
      });
      expect(project.has("third.txt")).toBe(false);
      expect(project.grant.remainingCalls).toBe(0);
    });

    it("an aborted run kills the call's process tree", async () => {
      const project = newProject();
      const agent = createAgent({
        model: scriptedChatModel([[{ tool: "shell", input: { cmd: SLEEPERS_CMD } }]]),
        tools: bridleLangChainTools({ registry: project.registry, grant: project.grant }),
      });
      const controller = new AbortController();
      const settled = agent
        .invoke({ messages: [{ role: "user", content: "work" }] }, { signal: controller.signal })
        .then(
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
