import { bridleToolSet } from "@agent-bridle/adapters/ai";
import { waitFor } from "@agent-bridle-tools/test-kit";
import { generateText, type ModelMessage, stepCountIs } from "ai";
import { describe, expect, it } from "vitest";
import { resultsSeen, scriptedModel } from "./helpers/ai-model.js";
import { useProjects } from "./helpers/project.js";
import { liveSleepers, SLEEPERS_CMD } from "./helpers/sleepers.js";

// Linux only: the bash engine under the launcher, and /proc to see the process tree.
const newProject = useProjects();

describe.skipIf(process.platform !== "linux")("AI SDK: abort and tool approval", () => {
  it("an aborted run kills the call's process tree", async () => {
    const project = newProject();
    const controller = new AbortController();
    const run = generateText({
      model: scriptedModel([[{ tool: "shell", input: { cmd: SLEEPERS_CMD } }]]),
      tools: bridleToolSet({ registry: project.registry, grant: project.grant }),
      prompt: "work",
      stopWhen: stepCountIs(5),
      abortSignal: controller.signal,
    });
    const settled = run.then(
      () => "resolved",
      () => "rejected",
    );
    await waitFor(() => liveSleepers().length === 2);
    // The audit sees the programs a call starts (what the denial tests see none of).
    expect(project.programsSpawned().filter((argv) => / 91\.(25|5)$/.test(argv))).toHaveLength(2);
    controller.abort();
    expect(await settled).toBe("rejected");
    await waitFor(() => liveSleepers().length === 0);
  });

  it("asks through the SDK's tool approval: nothing runs until approved, a refusal reaches the model", async () => {
    const project = newProject();
    const tools = bridleToolSet({
      registry: project.registry,
      grant: project.grant,
      needsApproval: (toolName) => toolName === "write_file",
    });
    const script = [
      [{ tool: "write_file", input: { path: "approved.txt", content: "yes\n" } }],
      [{ tool: "write_file", input: { path: "refused.txt", content: "no\n" } }],
    ];
    const messages: ModelMessage[] = [{ role: "user", content: "work" }];
    const respond = async () => {
      const model = scriptedModel(script);
      const result = await generateText({ model, tools, messages, stopWhen: stepCountIs(5) });
      messages.push(...result.response.messages);
      const requests = result.content.filter((part) => part.type === "tool-approval-request");
      return { model, result, requests };
    };

    const first = await respond();
    expect(first.requests).toHaveLength(1);
    expect(project.has("approved.txt")).toBe(false);
    messages.push({
      role: "tool",
      content: first.requests.map((request) => ({
        type: "tool-approval-response" as const,
        approvalId: request.approvalId,
        approved: true,
      })),
    });

    const second = await respond();
    expect(project.has("approved.txt")).toBe(true);
    expect(second.requests).toHaveLength(1);
    messages.push({
      role: "tool",
      content: second.requests.map((request) => ({
        type: "tool-approval-response" as const,
        approvalId: request.approvalId,
        approved: false,
        reason: "the user said no",
      })),
    });

    const third = await respond();
    expect(third.requests).toHaveLength(0);
    expect(project.has("refused.txt")).toBe(false);
    const seen = resultsSeen(third.model);
    expect(seen.at(-1)?.output).toEqual({ type: "execution-denied", reason: "the user said no" });
    // The approved call was the only one charged.
    expect(seen.filter((result) => result.output.type === "text")).toHaveLength(1);
  });
});
