/**
 * The real locations of every descriptor core's mediated open (`openPathRead`) handed to
 * the tools, so a test can show a denied or skipped entry was never opened. A test file
 * installs it with
 * `vi.mock("@agent-bridle/core", async (original) => (await import("./helpers/recorded-opens.js")).recordingCore(original))`
 * and clears `opened` after each test.
 */
import type * as Core from "@agent-bridle/core";

export const opened: string[] = [];

export async function recordingCore(importOriginal: () => Promise<unknown>): Promise<typeof Core> {
  const core = (await importOriginal()) as typeof Core;
  return {
    ...core,
    openPathRead: async (request: Parameters<typeof core.openPathRead>[0]) => {
      const decision = await core.openPathRead(request);
      if (decision.ok) opened.push(decision.value.path.real);
      return decision;
    },
  };
}
