import { bridleToolSet } from "@agent-bridle/adapters/ai";
import { stepCountIs, streamText } from "ai";
import { describe, expect, it } from "vitest";
import { resultsSeen, scriptedStreamingModel } from "./helpers/ai-model.js";
import { useProjects } from "./helpers/project.js";

// Linux only: the bash engine under the launcher.
const newProject = useProjects();

describe.skipIf(process.platform !== "linux")("AI SDK: streamText", () => {
  it("streams a shell call's live output as preliminary tool results before its result", async () => {
    const project = newProject();
    const model = scriptedStreamingModel([
      [{ tool: "shell", input: { cmd: "echo early; sleep 0.5; echo late" } }],
    ]);
    const result = streamText({
      model,
      tools: bridleToolSet({ registry: project.registry, grant: project.grant }),
      prompt: "work",
      stopWhen: stepCountIs(5),
    });
    const seen: { preliminary: boolean; output: unknown }[] = [];
    for await (const part of result.fullStream) {
      if (part.type === "tool-result")
        seen.push({ preliminary: part.preliminary === true, output: part.output });
    }
    const live = seen.filter((part) => part.preliminary).map((part) => part.output);
    expect(live[0]).toEqual({ status: "running", stdout: "early\n", stderr: "" });
    expect(live.map((output) => (output as { stdout: string }).stdout).join("")).toBe(
      "early\nlate\n",
    );
    const final = seen.filter((part) => !part.preliminary);
    expect(final).toHaveLength(1);
    expect(final[0]?.output).toMatchObject({ status: "done", result: { kind: "ran" } });
    expect(resultsSeen(model)[0]?.output.value).toContain("--- stdout ---\nearly\nlate\n");
  });
});
