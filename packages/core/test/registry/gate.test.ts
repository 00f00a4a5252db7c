import { describe, expect, it } from "vitest";
import type { AuditEvent } from "../../src/audit/audit-event.js";
import { caveats, leq, top } from "../../src/caveats/caveats.js";
import { Gate } from "../../src/gate/gate.js";
import { defaultPathPolicy } from "../../src/paths/path-policy.js";
import { recordingTool } from "./fixture-tools.js";

const pathPolicy = defaultPathPolicy({ platform: "linux", home: undefined });
const gate = (options: { generation?: number; maxCalls?: number } = {}) =>
  new Gate({ ...options, pathPolicy });

describe("Gate.authorize (reference cases 1–5)", () => {
  it("case 1: meet narrows the grant to what the tool requires", () => {
    const granted = caveats({
      fs_read: "all",
      fs_write: "all",
      exec: { only: ["echo", "ls"] },
      net: "all",
    });
    const { tool } = recordingTool(
      "echo",
      caveats({ fs_read: "all", fs_write: "all", exec: { only: ["echo"] }, net: "all" }),
    );
    const cx = gate().authorize(tool, granted);
    expect(cx.caveats.exec).toEqual({ only: ["echo"] });
    expect(leq(cx.caveats, granted)).toBe(true);
  });

  it("case 2: a tool asking for more gets the intersection and is denied per operation", async () => {
    const { tool } = recordingTool(
      "rm",
      caveats({ fs_read: "all", fs_write: "all", exec: { only: ["rm"] }, net: "all" }),
    );
    const cx = gate().authorize(
      tool,
      caveats({ fs_read: "all", fs_write: "all", exec: { only: ["echo"] }, net: "all" }),
    );
    expect(cx.caveats.exec).toEqual({ only: [] });
    expect((await cx.checkExec("rm")).ok).toBe(false);
    expect((await cx.checkExec("echo")).ok).toBe(false);
  });

  it("case 3: the default required = top leaves the grant as it is", () => {
    const granted = caveats({
      fs_read: "all",
      fs_write: "all",
      exec: { only: ["echo"] },
      net: "all",
    });
    const cx = gate().authorize(recordingTool().tool, granted);
    expect(cx.caveats).toEqual(granted);
  });

  it("case 4: a gate budget of 2 admits two, refuses the third; at_most(0) always refuses", () => {
    const limited = gate({ maxCalls: 2 });
    const { tool } = recordingTool();
    limited.authorize(tool, top());
    limited.authorize(tool, top());
    expect(() => limited.authorize(tool, top())).toThrow(
      expect.objectContaining({ code: "BUDGET_EXHAUSTED" }),
    );
    expect(() =>
      gate().authorize(
        tool,
        caveats({
          fs_read: "all",
          fs_write: "all",
          exec: "all",
          net: "all",
          max_calls: { at_most: 0 },
        }),
      ),
    ).toThrow(
      expect.objectContaining({
        code: "BUDGET_EXHAUSTED",
        message: "denied: call budget (max_calls) exhausted",
      }),
    );
  });

  it("case 5: generation is checked before the gate budget is charged", () => {
    const seven = gate({ generation: 7, maxCalls: 1 });
    const { tool } = recordingTool();
    expect(() =>
      seven.authorize(
        tool,
        caveats({
          fs_read: "all",
          fs_write: "all",
          exec: "all",
          net: "all",
          valid_for_generation: { only: [3] },
        }),
      ),
    ).toThrow(
      expect.objectContaining({
        code: "GENERATION_INVALID",
        message: "denied: grant is not valid for the gate's generation",
      }),
    );
    // The refusal cost nothing: the single gate call is still available.
    expect(
      seven.authorize(
        tool,
        caveats({
          fs_read: "all",
          fs_write: "all",
          exec: "all",
          net: "all",
          valid_for_generation: { only: [7] },
        }),
      ).caveats.valid_for_generation,
    ).toEqual({
      only: [7],
    });
  });

  it("ToolContext has no public constructor", async () => {
    const cx = gate().authorize(recordingTool().tool, top());
    const Context = cx.constructor as new (...args: unknown[]) => unknown;
    expect(() => new Context(Symbol("forged"), {})).toThrow(/minted only by the Gate/);
    const index = await import("../../src/index.js");
    expect(Object.keys(index)).not.toContain("mintToolContext");
  });

  it("case 9: check_net is exact membership; the context is frozen and denials reach the audit sink", async () => {
    const events: unknown[] = [];
    const audited = new Gate({ pathPolicy, audit: { record: (event) => events.push(event) } });
    const cx = audited.authorize(
      recordingTool().tool,
      caveats({ fs_read: "all", fs_write: "all", exec: "all", net: { only: ["example.com"] } }),
    );
    expect(Object.isFrozen(cx)).toBe(true);
    expect(cx.checkNet("example.com").ok).toBe(true);
    expect(cx.checkNet("evil.test")).toMatchObject({
      ok: false,
      denial: { kind: "net", code: "NET_NOT_GRANTED" },
    });
    expect(events).toEqual([
      expect.objectContaining({
        type: "check-denied",
        tool: "echo",
        denial: expect.objectContaining({ target: "evil.test" }),
      }),
    ]);
  });
});

describe("call ids on audit records", () => {
  it("a gate stamps each authorized call's records with its own id, or the one it is given", async () => {
    const events: AuditEvent[] = [];
    const audit = { record: (event: AuditEvent) => events.push(event) };
    const own = new Gate({ pathPolicy, audit });
    const granted = caveats({ net: { only: [] } });
    own.authorize(recordingTool().tool, granted).checkNet("a.test");
    own.authorize(recordingTool().tool, granted).checkNet("b.test");
    new Gate({ pathPolicy, audit, callId: 41 })
      .authorize(recordingTool().tool, granted)
      .checkNet("c.test");
    expect(events.map((event) => event.callId)).toEqual([1, 2, 41]);
  });
});
