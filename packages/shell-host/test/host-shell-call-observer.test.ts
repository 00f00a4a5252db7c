import { RunEnvelopeSchema, type ShellOutputObserver, top } from "@agent-bridle/core";
import { NONE_BACKEND } from "@agent-bridle/sandbox";
import { describe, expect, it } from "vitest";
import { createHostShellTool } from "../src/host-shell-tool.js";
import { registryWith, useTempDirs } from "./helpers.js";

const tempDir = useTempDirs();

function collector() {
  const chunks: string[] = [];
  const observer: ShellOutputObserver = (_id, stream, chunk) => {
    if (stream === "stdout") chunks.push(Buffer.from(chunk).toString("utf8"));
  };
  return { observer, text: () => chunks.join("") };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

describe("host shell: a per-call observer (DispatchOptions.observer)", () => {
  it("receives that call's output, alongside the tool's own observer, and no other call's", async () => {
    const built = collector();
    const tool = createHostShellTool({
      home: "/nonexistent-home",
      tmpdir: "/tmp",
      baseDir: tempDir(),
      backend: NONE_BACKEND,
      observer: built.observer,
    });
    const { registry } = registryWith(tool);
    const grant = registry.mintGrant(top());
    const call = collector();
    const envelope = RunEnvelopeSchema.parse(
      await registry.dispatch("shell", { cmd: "echo per-call" }, grant, {
        observer: call.observer,
      }),
    );
    await registry.dispatch("shell", { cmd: "echo unobserved" }, grant);
    await settle();
    expect(envelope.stdout).toBe("per-call\n");
    expect(call.text()).toBe("per-call\n");
    expect(built.text()).toBe("per-call\nunobserved\n");
  });
});
