import { spawnSync } from "node:child_process";
import { caveats, only, RunEnvelopeSchema, top } from "@agent-bridle/core";
import { NONE_BACKEND } from "@agent-bridle/sandbox";
import { registryWith } from "@agent-bridle-tools/test-kit";
import { describe, expect, it } from "vitest";
import { createBrushShellTool } from "../../src/tool/brush-shell-tool.js";
import { workerChildren } from "./worker-children.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A worker other than `served` (the one that served a call, and may still be dying). */
async function warmWorker(...served: number[]): Promise<number> {
  for (let tries = 0; tries < 200; tries += 1) {
    const [pid] = workerChildren().filter((child) => !served.includes(child));
    if (pid !== undefined) return pid;
    await sleep(25);
  }
  throw new Error("no warm worker appeared");
}

function brush() {
  const tool = createBrushShellTool({
    home: "/nonexistent-home",
    tmpdir: "/tmp",
    backend: NONE_BACKEND,
    warm: true,
  });
  return { tool, registry: registryWith(tool).registry };
}

const ppidScript = "/bin/sh -c 'echo $PPID'";

/** Runs `cmd` after a program that prints the worker's pid; returns the pid and the rest. */
async function servedBy(
  registry: ReturnType<typeof brush>["registry"],
  cmd: string,
  grant: Parameters<ReturnType<typeof brush>["registry"]["dispatch"]>[2],
): Promise<number> {
  const envelope = RunEnvelopeSchema.parse(
    await registry.dispatch("shell", { cmd: `${ppidScript}; ${cmd}`, cwd: "/" }, grant),
  );
  return Number(envelope.stdout.split("\n")[0]);
}

describe("the warm worker (spec §9)", () => {
  it("serves the next call with the same authority, exactly once, and close() kills the spare", async () => {
    const { tool, registry } = brush();
    const grant = registry.mintGrant(top());
    const cold = await servedBy(registry, "true", grant);
    const warm = await warmWorker(cold);
    const second = RunEnvelopeSchema.parse(
      await registry.dispatch("shell", { cmd: ppidScript, cwd: "/" }, grant),
    );
    expect(Number(second.stdout)).toBe(warm);
    const next = await warmWorker(cold, warm);
    expect(next).not.toBe(warm);
    await tool.close?.();
    expect(workerChildren()).toEqual([]);
  });

  it("is discarded when the next call's caveats differ: that call runs under its own grant", async () => {
    const { tool, registry } = brush();
    const cold = await servedBy(registry, "true", registry.mintGrant(top()));
    const warm = await warmWorker(cold);
    const narrow = registry.mintGrant(
      caveats({ fs_read: "all", fs_write: "all", exec: only(["echo"]), net: "all" }),
    );
    const envelope = RunEnvelopeSchema.parse(
      await registry.dispatch("shell", { cmd: `${ppidScript}; echo $?`, cwd: "/" }, narrow),
    );
    expect(envelope.stdout).toBe("126\n");
    expect(envelope.stderr).toContain("execution denied");
    await tool.close?.();
    expect(workerChildren()).not.toContain(warm);
    expect(workerChildren()).toEqual([]);
  });

  it("an idle warm worker exits on its own after idleMs", async () => {
    const tool = createBrushShellTool({
      home: "/nonexistent-home",
      tmpdir: "/tmp",
      backend: NONE_BACKEND,
      idleMs: 400,
    });
    const { registry } = registryWith(tool);
    const cold = await servedBy(registry, "true", registry.mintGrant(top()));
    const warm = await warmWorker(cold);
    for (let tries = 0; tries < 200 && workerChildren().includes(warm); tries += 1) await sleep(25);
    expect(workerChildren()).not.toContain(warm);
    await tool.close?.();
  });

  it("close() settles in a host with nothing else pending (the idle worker is held again to be reaped)", () => {
    const dist = (name: string) => new URL(`../../../${name}/dist/index.js`, import.meta.url).href;
    const script = `
      import { Registry, top } from "${dist("core")}";
      import { NONE_BACKEND } from "${dist("sandbox")}";
      import { createBrushShellTool } from "${dist("shell-brush")}";
      const tool = createBrushShellTool({ home: "/tmp", tmpdir: "/tmp", backend: NONE_BACKEND });
      const registry = Registry.builder().tool(tool).build();
      await registry.dispatch("shell", { cmd: "true", cwd: "/" }, registry.mintGrant(top()));
      await tool.warmReady();
      await registry.close();
      process.stdout.write("closed");
    `;
    const run = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
      stdio: ["ignore", "pipe", "pipe"],
      timeout: 20_000,
    });
    expect(run.stderr.toString()).toBe("");
    expect(run.stdout.toString()).toBe("closed");
    expect(run.status).toBe(0);
  });
});
