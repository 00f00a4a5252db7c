import { stat } from "node:fs/promises";
import { defineTool, deniedInvocation, ran } from "@agent-bridle/core";
import { z } from "zod";

const READ_ONLY = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};

/** Resolves a program through the exec check (no spawn): shows exec identity in action. */
export const whichTool = defineTool<{ program: string }, unknown>({
  name: "which",
  description: "Say where a program resolves on the trusted PATH, if the grant lets you run it.",
  inputSchema: z.object({ program: z.string().min(1).max(4096) }),
  annotations: READ_ONLY,
  async invoke() {
    throw new Error("which is accounted");
  },
  async invokeAccounted({ program }, cx) {
    const decision = await cx.checkExec(program);
    if (!decision.ok) return deniedInvocation({ denied: true, denials: [decision.denial] });
    return ran({ program, resolved: decision.value.resolved ?? null });
  },
});

/** Stats a path through the path judge: shows real-location judging and blocked paths. */
export const sizeTool = defineTool<{ path: string }, unknown>({
  name: "size_of",
  description: "Report the size in bytes of a file the grant lets you read.",
  inputSchema: z.object({ path: z.string().min(1).max(4096) }),
  annotations: READ_ONLY,
  async invoke() {
    throw new Error("size_of is accounted");
  },
  async invokeAccounted({ path }, cx) {
    const decision = await cx.checkPathRead(path);
    if (!decision.ok) return deniedInvocation({ denied: true, denials: [decision.denial] });
    return ran({ path: decision.value.real, size: (await stat(decision.value.real)).size });
  },
});
