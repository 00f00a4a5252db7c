import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import {
  atMost,
  buildDeniedEnvelope,
  buildRunEnvelope,
  CONFINED_FLOOR,
  ConfigurationError,
  caveats,
  defineTool,
  deniedInvocation,
  EnforcementReportSchema,
  FS_AND_EXEC_COVERAGE,
  type Invocation,
  NO_COVERAGE,
  only,
  Registry,
  ran,
  type ToolEnvelope,
} from "@agent-bridle/core";
import { describe, expect, it } from "vitest";
import type { Backend } from "../../src/backend/backend.js";
import { createSandbox } from "../../src/funnel/sandbox.js";
import { fakeLauncherBackend } from "./helpers/fake-launcher.js";
import { contextFor, recordingAudit, useTempDir } from "./helpers/funnel-context.js";

const tempDir = useTempDir();
const sandbox = createSandbox({ home: "/nonexistent-home", tmpdir: "/tmp" });
const base = { cwd: "/", timeoutMs: 5000, maxOutputBytes: 65536 };

describe("admission before any spawn", () => {
  it("admits the engine's own runtime program by absolute path only, without the grant's exec check", async () => {
    const marker = join(tempDir(), "runtime-marker");
    const cx = contextFor({ exec: only(["echo"]) });
    const script = `: > ${marker}`;
    const listed = await sandbox.run(
      cx,
      { ...base, stages: [["/usr/bin/bash", "-c", script]], runtimeExecutables: ["/usr/bin/bash"] },
      { coverage: FS_AND_EXEC_COVERAGE },
    );
    expect(listed.kind).toBe("ran");
    expect(existsSync(marker)).toBe(true);
    // Not listed, or spelled bare: the grant decides, and bash is not granted.
    for (const argv of [
      ["/usr/bin/bash", "-c", script],
      ["bash", "-c", script],
    ]) {
      const refused = await sandbox.run(
        cx,
        { ...base, stages: [argv], runtimeExecutables: argv[0] === "bash" ? ["bash"] : [] },
        { coverage: FS_AND_EXEC_COVERAGE },
      );
      expect(refused).toMatchObject({ kind: "refused", denial: { code: "EXEC_NOT_GRANTED" } });
    }
  });

  it("refuses a program outside exec, runs nothing, and audits the decision", async () => {
    const marker = join(tempDir(), "marker");
    const audit = recordingAudit();
    const cx = contextFor({ exec: only(["echo"]) }, { audit });
    const outcome = await sandbox.run(
      cx,
      { ...base, stages: [["touch", marker]] },
      { coverage: FS_AND_EXEC_COVERAGE },
    );
    expect(outcome.kind).toBe("refused");
    if (outcome.kind !== "refused") return;
    expect(outcome.denial).toMatchObject({
      kind: "exec",
      target: "touch",
      code: "EXEC_NOT_GRANTED",
    });
    expect(existsSync(marker)).toBe(false);
    expect(audit.events).toContainEqual({
      type: "spawn",
      tool: "funnel-test",
      argv: ["touch", marker],
      decision: "denied",
      code: "EXEC_NOT_GRANTED",
      callId: 1,
    });
  });

  it("admits a granted bare name, spawns the trusted-PATH program, and audits the argv", async () => {
    const audit = recordingAudit();
    const cx = contextFor({ exec: only(["echo"]) }, { audit });
    const outcome = await sandbox.run(
      cx,
      { ...base, stages: [["echo", "hi"]] },
      { coverage: FS_AND_EXEC_COVERAGE },
    );
    expect(outcome.kind).toBe("ran");
    if (outcome.kind !== "ran") return;
    expect(outcome.result.stdout.toString()).toBe("hi\n");
    expect(outcome.sandboxKind).toBe("none");
    expect(outcome.report).toEqual({ exec: "interceptor" });
    const spawn = audit.events.find((event) => event.type === "spawn");
    expect(spawn).toMatchObject({ decision: "admitted", argv: ["/usr/bin/echo", "hi"] });
    expect(audit.events).toContainEqual({
      type: "report",
      tool: "funnel-test",
      sandbox_kind: "none",
      enforcement: { exec: "interceptor" },
      callId: 1,
    });
  });

  it("refuses fs_write only[...] in-band with the none backend (ENFORCEMENT_BELOW_FLOOR), nothing runs", async () => {
    const dir = tempDir();
    const marker = join(dir, "marker");
    const cx = contextFor({ fs_write: only([dir]) });
    const outcome = await sandbox.run(
      cx,
      { ...base, stages: [["touch", marker]] },
      { coverage: FS_AND_EXEC_COVERAGE },
    );
    expect(outcome).toMatchObject({
      kind: "refused",
      // Nothing was started: the refusal claims no strength (issue 17 point 10).
      sandboxKind: "none",
      report: {},
      denial: { kind: "open", target: "filesystem", code: "ENFORCEMENT_BELOW_FLOOR" },
    });
    expect(existsSync(marker)).toBe(false);
  });

  it("maps each axis to its denial kind and target", async () => {
    const cases = [
      [{ net: only([]) }, { kind: "net", target: "network" }],
      [{ fs_read: only(["/srv"]) }, { kind: "open", target: "filesystem" }],
    ] as const;
    for (const [grant, expected] of cases) {
      const outcome = await sandbox.run(
        contextFor(grant),
        { ...base, stages: [["true"]] },
        { coverage: NO_COVERAGE },
      );
      expect(outcome).toMatchObject({
        kind: "refused",
        denial: { ...expected, code: "ENFORCEMENT_BELOW_FLOOR" },
      });
    }
    const exec = await sandbox.run(
      contextFor({ exec: only(["true"]) }, { floor: CONFINED_FLOOR }),
      { ...base, stages: [["true"]] },
      { coverage: NO_COVERAGE },
    );
    expect(exec).toMatchObject({
      kind: "refused",
      denial: { kind: "exec", target: "confinement" },
    });
  });
});

describe("reference case 20 (adapted): floor refusal through the registry", () => {
  it("is in-band, uncharged, twice in a row, and spawns nothing", async () => {
    const marker = join(tempDir(), "marker");
    const spawnTool = defineTool({
      name: "spawn_marker",
      description: "Touches a marker through the funnel.",
      // The sandbox package has no zod dependency: any core schema accepting `{}` will do.
      inputSchema: EnforcementReportSchema,
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      },
      invoke: async () => {
        throw new Error("use invokeAccounted");
      },
      invokeAccounted: async (_args, cx): Promise<Invocation<ToolEnvelope>> => {
        const outcome = await sandbox.run(
          cx,
          { ...base, stages: [["touch", marker]] },
          { coverage: NO_COVERAGE },
        );
        const context = {
          sandboxKind: outcome.sandboxKind,
          enforcement: outcome.report,
          disclosure: undefined,
          elapsedMs: 0,
        };
        if (outcome.kind === "refused")
          return deniedInvocation(buildDeniedEnvelope(context, [outcome.denial]));
        if (outcome.kind !== "ran") throw new Error(outcome.kind);
        const { result } = outcome;
        return ran(
          buildRunEnvelope(context, {
            exitCode: result.exitCode ?? 124,
            stdout: result.stdout.toString(),
            stderr: result.stderr.toString(),
            timedOut: result.timedOut,
            stdoutTruncated: result.stdoutTruncated,
            stderrTruncated: result.stderrTruncated,
            denials: [],
          }),
        );
      },
    });
    const registry = Registry.builder().tool(spawnTool).build();
    const grant = registry.mintGrant(
      caveats({
        fs_read: "all",
        fs_write: "all",
        exec: "all",
        net: only(["example.invalid"]),
        max_calls: atMost(1),
      }),
    );
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const envelope = await registry.dispatchWithStrengthFloor(
        "spawn_marker",
        {},
        grant,
        "kernel",
      );
      expect(envelope).not.toHaveProperty("enforcement");
      expect(envelope).toMatchObject({
        sandbox_kind: "none",
        denied: true,
        denials: [{ kind: "net", target: "network", code: "ENFORCEMENT_BELOW_FLOOR" }],
      });
      expect(grant.remainingCalls).toBe(1);
    }
    expect(existsSync(marker)).toBe(false);
  });
});

describe("the Landlock backend glue (fake launcher)", () => {
  it("engages for fs_write only[...], reports kernel, and hands the launcher the policy", async () => {
    const dir = tempDir();
    const work = join(dir, "work");
    mkdirSync(work);
    const { backend, policyFile } = fakeLauncherBackend(dir);
    const landlock = createSandbox({ home: "/nonexistent-home", tmpdir: "/tmp", backend });
    const outcome = await landlock.run(
      contextFor({ fs_write: only([work]) }),
      { ...base, cwd: work, stages: [["touch", join(work, "made")]] },
      { coverage: NO_COVERAGE },
    );
    expect(outcome).toMatchObject({
      kind: "ran",
      sandboxKind: "landlock",
      report: { fs_write: "kernel" },
    });
    expect(existsSync(join(work, "made"))).toBe(true);
    const policy = readFileSync(policyFile, "utf8").split("\n");
    expect(policy.slice(0, 4)).toEqual([
      "version 1",
      "fs-read all",
      "fs-write restricted",
      "exec all",
    ]);
    expect(policy).toContain(`write ${work}`);
    expect(policy).toContain("write /dev/null");
    expect(policy).toContain(`cwd ${work}`);
  });

  /** `touch marker` under `fs_write only[dir]` through a sandbox on `backend`. */
  const touchThrough = (backend: Backend, dir: string, marker: string) =>
    createSandbox({ home: "/nonexistent-home", tmpdir: "/tmp", backend }).run(
      contextFor({ fs_write: only([dir]) }),
      { ...base, stages: [["touch", marker]] },
      { coverage: NO_COVERAGE },
    );

  // Honest degradation (kernel-boundary.md §2): a host where any one layer cannot be set up
  // gets no kernel claim at all, so the default floor refuses in-band and nothing runs.
  it.each(["namespaces", "private_view", "capabilities", "landlock", "seccomp"] as const)(
    "refuses in-band when the %s layer is missing, and runs nothing",
    async (layer) => {
      const dir = tempDir();
      const layers = {
        namespaces: true,
        private_view: true,
        capabilities: true,
        landlock: true,
        seccomp: true,
        [layer]: false,
      };
      const { backend } = fakeLauncherBackend(dir, { layers, layer_error: `${layer} failed` });
      expect((await backend.probe()).detail).toContain(`missing ${layer}`);
      const marker = join(dir, "marker");
      const outcome = await touchThrough(backend, dir, marker);
      expect(outcome).toMatchObject({ kind: "refused", sandboxKind: "none" });
      expect(existsSync(marker)).toBe(false);
      // Positive control: the same host with every layer engages and runs the program.
      const ran = await touchThrough(fakeLauncherBackend(tempDir()).backend, dir, marker);
      expect(ran).toMatchObject({ kind: "ran", sandboxKind: "landlock" });
      expect(existsSync(marker)).toBe(true);
    },
  );

  it("falls back to none (and the floor refuses) when the launcher's probe fails", async () => {
    const dir = tempDir();
    const { backend } = fakeLauncherBackend(dir, { landlock_abi: 0 });
    const marker = join(dir, "marker");
    const outcome = await touchThrough(backend, dir, marker);
    expect(outcome).toMatchObject({ kind: "refused", sandboxKind: "none" });
    expect(existsSync(marker)).toBe(false);
  });

  it("refuses when a blocked entry inside a granted root cannot be masked", async () => {
    const dir = tempDir();
    const { backend, policyFile } = fakeLauncherBackend(dir);
    const landlock = createSandbox({ home: "/nonexistent-home", tmpdir: "/tmp", backend });
    const marker = join(dir, "marker");
    const cx = contextFor(
      { fs_write: only([dir]) },
      { pathPolicy: { blocked: ["**/.ssh"], writeBlocked: [] } },
    );
    const outcome = await landlock.run(
      cx,
      { ...base, stages: [["touch", marker]] },
      { coverage: NO_COVERAGE },
    );
    expect(outcome).toMatchObject({ kind: "refused", denial: { code: "ENFORCEMENT_BELOW_FLOOR" } });
    expect(existsSync(marker)).toBe(false);
    expect(existsSync(policyFile)).toBe(false);
  });

  it("uses the none backend for a top() grant even with the launcher present", async () => {
    const { backend, policyFile } = fakeLauncherBackend(tempDir());
    const landlock = createSandbox({ home: "/nonexistent-home", tmpdir: "/tmp", backend });
    const outcome = await landlock.run(
      contextFor(),
      { ...base, stages: [["true"]] },
      { coverage: NO_COVERAGE },
    );
    expect(outcome).toMatchObject({ kind: "ran", sandboxKind: "none", report: {} });
    expect(existsSync(policyFile)).toBe(false);
  });
});

describe("programmer errors", () => {
  it("throws for an empty pipeline, a non-positive timeout or a bad cap", async () => {
    const cx = contextFor();
    const run = (request: Partial<typeof base> & { stages: string[][] }) =>
      sandbox.run(cx, { ...base, ...request }, { coverage: NO_COVERAGE });
    await expect(run({ stages: [] })).rejects.toThrow(ConfigurationError);
    await expect(run({ stages: [[]] })).rejects.toThrow(ConfigurationError);
    await expect(run({ stages: [["true"]], timeoutMs: 0 })).rejects.toThrow(ConfigurationError);
    await expect(run({ stages: [["true"]], maxOutputBytes: -1 })).rejects.toThrow(
      ConfigurationError,
    );
  });

  it("reports a program missing from the trusted PATH as not-found, spawning nothing", async () => {
    const outcome = await sandbox.run(
      contextFor(),
      { ...base, stages: [["definitely-not-a-program-xyz"]] },
      { coverage: NO_COVERAGE },
    );
    expect(outcome).toMatchObject({ kind: "not-found", program: "definitely-not-a-program-xyz" });
  });
});
