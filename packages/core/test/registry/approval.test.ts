import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { AuditEvent } from "../../src/audit/audit-event.js";
import { caveats, top } from "../../src/caveats/caveats.js";
import { createDenial } from "../../src/envelope/denial.js";
import { DeniedEnvelopeSchema } from "../../src/envelope/envelope.js";
import type { ApprovalRequest } from "../../src/registry/approval.js";
import { Registry } from "../../src/registry/registry.js";
import { deniedInvocation, ran } from "../../src/tool/invocation.js";
import { defineTool } from "../../src/tool/tool.js";
import { ANNOTATIONS, recordingTool } from "./fixture-tools.js";

/** A tool that asks approval itself: it refuses `bad` in its own check, else asks, then runs. */
function checkingTool(options: { asks: boolean }) {
  const effects: string[] = [];
  const tool = defineTool({
    name: "checking",
    description: "Refuses `bad` before asking; otherwise asks, then records an effect.",
    inputSchema: z.object({ target: z.string() }),
    annotations: ANNOTATIONS,
    approvesAfterChecks: true,
    async invoke() {
      return {};
    },
    async invokeAccounted(args, _cx, { approve }) {
      if (args.target === "bad") {
        const denial = createDenial("open", "bad", "FS_OUTSIDE_ALLOWED", "denied: outside");
        return deniedInvocation({ denied: true, denials: [denial] });
      }
      if (options.asks) await approve?.();
      effects.push(args.target);
      return ran({ ok: true });
    },
  });
  return { tool, effects };
}

// Spec §13 case 18: step-up is replaced by the approval pre-invoke hook.
describe("approval hook (replaces step-up)", () => {
  it("a refusal runs nothing, is not charged, and is an in-band APPROVAL_REFUSED denial — even under top()", async () => {
    const { tool, calls } = recordingTool();
    const registry = Registry.builder()
      .tool(tool)
      .approvalHook(() => false)
      .build();
    for (const grant of [
      registry.mintGrant(top()),
      registry.mintGrant(
        caveats({
          fs_read: "all",
          fs_write: "all",
          exec: "all",
          net: "all",
          max_calls: { at_most: 1 },
        }),
      ),
    ]) {
      const result = await registry.dispatch("echo", { text: "hi" }, grant);
      expect(DeniedEnvelopeSchema.parse(result)).toMatchObject({
        denied: true,
        sandbox_kind: "none",
        denials: [{ kind: "exec", target: "echo", code: "APPROVAL_REFUSED" }],
        disclosure: { human_gate: "approval_hook" },
      });
      expect(grant.remainingCalls).toBe(
        grant.caveats.max_calls === "unlimited" ? Number.POSITIVE_INFINITY : 1,
      );
    }
    expect(calls).toHaveLength(0);
  });

  it("twice in a row the refused call leaves the budget intact", async () => {
    const { tool, calls } = recordingTool();
    const registry = Registry.builder()
      .tool(tool)
      .approvalHook(async () => ({ approved: false, reason: "not now" }))
      .build();
    const grant = registry.mintGrant(
      caveats({
        fs_read: "all",
        fs_write: "all",
        exec: "all",
        net: "all",
        max_calls: { at_most: 1 },
      }),
    );
    for (let i = 0; i < 2; i++) {
      const result = (await registry.dispatch("echo", {}, grant)) as {
        denials: { reason: string }[];
      };
      expect(result.denials[0]?.reason).toBe("denied: not now");
    }
    expect(grant.remainingCalls).toBe(1);
    expect(calls).toHaveLength(0);
  });

  it("a throwing hook refuses (fails closed)", async () => {
    const { tool, calls } = recordingTool();
    const registry = Registry.builder()
      .tool(tool)
      .approvalHook(() => {
        throw new Error("hook crashed");
      })
      .build();
    await expect(registry.dispatch("echo", {}, registry.mintGrant(top()))).resolves.toMatchObject({
      denied: true,
    });
    expect(calls).toHaveLength(0);
  });

  it("an approval runs the call, charged; the hook sees the parsed arguments or the inspection", async () => {
    const seen: ApprovalRequest[] = [];
    const { tool, calls } = recordingTool();
    const inspected = {
      ...recordingTool("shell").tool,
      inspect: async () => ({ schema_version: 1, commands: ["ls"] }),
    };
    const failing = {
      ...recordingTool("shell2").tool,
      inspect: async () => Promise.reject(new Error("parse error at 3")),
    };
    const registry = Registry.builder()
      .tool(tool)
      .tool(inspected)
      .tool(failing)
      .approvalHook((request) => {
        seen.push(request);
        return true;
      })
      .build();
    const grant = registry.mintGrant(
      caveats({
        fs_read: "all",
        fs_write: "all",
        exec: "all",
        net: "all",
        max_calls: { at_most: 3 },
      }),
    );
    await registry.dispatch("echo", { text: "ok" }, grant);
    await registry.dispatch("shell", {}, grant);
    await registry.dispatch("shell2", {}, grant);
    expect(calls).toHaveLength(1);
    expect(grant.remainingCalls).toBe(0);
    expect(seen).toEqual([
      { tool: "echo", arguments: { text: "ok" } },
      { tool: "shell", arguments: {}, inspection: { schema_version: 1, commands: ["ls"] } },
      { tool: "shell2", arguments: {}, inspection_error: "parse error at 3" },
    ]);
  });

  it("the hook is not consulted for a call the registry refuses anyway", async () => {
    let asked = 0;
    const registry = Registry.builder()
      .tool(recordingTool().tool)
      .approvalHook(() => {
        asked += 1;
        return true;
      })
      .build();
    await expect(
      registry.dispatch(
        "echo",
        {},
        registry.mintGrant(
          caveats({
            fs_read: "all",
            fs_write: "all",
            exec: "all",
            net: "all",
            max_calls: { at_most: 0 },
          }),
        ),
      ),
    ).rejects.toThrow();
    expect(asked).toBe(0);
  });

  it("validate → judge → approve → run: a call its tool refuses never asks; an approved one is asked before its effect", async () => {
    const { tool, effects } = checkingTool({ asks: true });
    const asked: unknown[] = [];
    const registry = Registry.builder()
      .tool(tool)
      .approvalHook((request) => {
        asked.push({ ...(request.arguments as object), effectsSoFar: effects.length });
        return true;
      })
      .build();
    const grant = registry.mintGrant(caveats({ max_calls: "unlimited" }));
    await expect(registry.dispatch("checking", { target: 7 }, grant)).rejects.toThrow();
    await expect(registry.dispatch("checking", { target: "bad" }, grant)).resolves.toMatchObject({
      denied: true,
    });
    expect(asked).toEqual([]);
    await expect(registry.dispatch("checking", { target: "ok" }, grant)).resolves.toEqual({
      ok: true,
    });
    expect(asked).toEqual([{ target: "ok", effectsSoFar: 0 }]);
    expect(effects).toEqual(["ok"]);
  });

  it("a refusal through the tool's approve is an uncharged APPROVAL_REFUSED, audited with the call's id", async () => {
    const { tool, effects } = checkingTool({ asks: true });
    const events: AuditEvent[] = [];
    const registry = Registry.builder()
      .tool(tool)
      .audit({ record: (event) => events.push(event) })
      .approvalHook(() => ({ approved: false, reason: "not this one" }))
      .build();
    const grant = registry.mintGrant(caveats({ max_calls: { at_most: 1 } }));
    await expect(registry.dispatch("checking", { target: "ok" }, grant)).resolves.toMatchObject({
      denied: true,
      denials: [{ code: "APPROVAL_REFUSED", reason: "denied: not this one" }],
    });
    expect(effects).toEqual([]);
    expect(grant.remainingCalls).toBe(1);
    expect(events.map((event) => [event.type, event.callId])).toEqual([
      ["dispatch-admitted", 1],
      ["dispatch-refused", 1],
      ["dispatch-finished", 1],
    ]);
  });

  it("fails closed on a tool that declares it asks and runs without asking", async () => {
    const { tool } = checkingTool({ asks: false });
    const registry = Registry.builder()
      .tool(tool)
      .approvalHook(() => true)
      .build();
    await expect(
      registry.dispatch("checking", { target: "ok" }, registry.mintGrant(top())),
    ).rejects.toThrow(/without asking the approval hook/);
  });
});
