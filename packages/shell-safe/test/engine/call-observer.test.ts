import { type ShellOutputObserver, top } from "@agent-bridle/core";
import { describe, expect, it } from "vitest";
import { asRun, safeShell, useTempDirs } from "./helpers.js";

const tempDir = useTempDirs();

const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

describe("shell-safe: a per-call observer (DispatchOptions.observer)", () => {
  it("receives that call's output only; a call without one is not observed", async () => {
    const chunks: string[] = [];
    const observer: ShellOutputObserver = (_id, stream, chunk) => {
      chunks.push(`${stream}:${Buffer.from(chunk).toString("utf8")}`);
    };
    const { registry } = safeShell(tempDir());
    const grant = registry.mintGrant(top());
    const envelope = asRun(
      await registry.dispatch("shell", { cmd: "echo per-call" }, grant, { observer }),
    );
    await registry.dispatch("shell", { cmd: "echo unobserved" }, grant);
    await settle();
    expect(envelope.stdout).toBe("per-call\n");
    expect(chunks.join("")).toBe("stdout:per-call\n");
  });
});
