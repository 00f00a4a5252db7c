import type { ModelResult } from "agent-bridle";
import type { BoundCallOptions, BoundTool } from "./bound-tools.js";

/** Output that arrived since the previous step of a live call. */
export interface LiveChunk {
  readonly stdout: string;
  readonly stderr: string;
}

export type LiveStep =
  | { readonly done: false; readonly chunk: LiveChunk }
  | { readonly done: true; readonly result: ModelResult };

/**
 * Runs one bound call and yields its live output as it arrives (what came since the
 * previous step, both streams), then its result. A rejected call (an abort) rejects the
 * iteration.
 */
export async function* liveCall(
  tool: BoundTool,
  args: unknown,
  signal: BoundCallOptions["signal"],
): AsyncGenerator<LiveStep, void, undefined> {
  let stdout = "";
  let stderr = "";
  let finished = false;
  let wake: (() => void) | undefined;
  const call = tool.call(args, {
    signal,
    onOutput: (stream, text) => {
      if (stream === "stdout") stdout += text;
      else stderr += text;
      wake?.();
    },
  });
  const settled = call.then(
    () => undefined,
    () => undefined,
  );
  void settled.then(async () => {
    // The engine has ended the output session before dispatch settles; chunks still
    // queued for the observer arrive within one macrotask turn.
    await new Promise((resolve) => setImmediate(resolve));
    finished = true;
    wake?.();
  });
  for (;;) {
    if (stdout !== "" || stderr !== "") {
      const chunk = { stdout, stderr };
      stdout = "";
      stderr = "";
      yield { done: false, chunk };
      continue;
    }
    if (finished) break;
    await new Promise<void>((resolve) => {
      wake = resolve;
    });
    wake = undefined;
  }
  yield { done: true, result: await call };
}
