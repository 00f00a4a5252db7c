import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createDenial } from "../../src/envelope/denial.js";
import { buildDisclosure } from "../../src/envelope/disclosure.js";
import {
  buildDeniedEnvelope,
  buildRunEnvelope,
  DeniedEnvelopeSchema,
  type EnvelopeContext,
  RunEnvelopeSchema,
} from "../../src/envelope/envelope.js";

const golden = (name: string) =>
  JSON.parse(readFileSync(new URL(`../fixtures/golden/${name}.json`, import.meta.url), "utf8"));

const quiet: EnvelopeContext = {
  sandboxKind: "none",
  enforcement: {},
  disclosure: undefined,
  elapsedMs: 12,
};
const ran = {
  exitCode: 0,
  stdout: "hi\n",
  stderr: "",
  timedOut: false,
  stdoutTruncated: false,
  stderrTruncated: false,
};

describe("envelope golden fixtures (case 21)", () => {
  it("a plain run: sandbox_kind always, flags always, no denied/denials/enforcement/disclosure keys", () => {
    const envelope = buildRunEnvelope(quiet, { ...ran, denials: [] });
    expect(JSON.parse(JSON.stringify(envelope))).toEqual(golden("run-envelope-plain"));
    expect(Object.keys(envelope)).not.toContain("denied");
    expect(Object.keys(envelope)).not.toContain("denials");
  });

  it("a run with a denial recorded during it", () => {
    const denial = createDenial(
      "exec",
      "rm",
      "EXEC_NOT_GRANTED",
      'exec of "rm" is not within the granted authority',
    );
    const envelope = buildRunEnvelope(
      {
        sandboxKind: "landlock",
        enforcement: { fs_write: "kernel", exec: "interceptor" },
        disclosure: buildDisclosure({
          unbridled: false,
          humanGate: "approval_hook",
          engine: "brush",
        }),
        elapsedMs: 40.2,
      },
      { ...ran, exitCode: 126, stdout: "", stderr: "rm: denied\n", denials: [denial] },
    );
    expect(JSON.parse(JSON.stringify(envelope))).toEqual(golden("run-envelope-denied-during-run"));
    expect(envelope.denials?.[0]?.kind).toBe("exec");
  });

  it("a pre-run denial has no process fields", () => {
    const denial = createDenial(
      "open",
      "/etc/shadow",
      "FS_OUTSIDE_ALLOWED",
      "read of /etc/shadow is outside the granted fs_read scope",
    );
    const envelope = buildDeniedEnvelope(
      {
        sandboxKind: "none",
        enforcement: { fs_read: "interceptor" },
        disclosure: buildDisclosure({ unbridled: true, humanGate: "none" }),
        elapsedMs: 1,
      },
      [denial],
    );
    expect(JSON.parse(JSON.stringify(envelope))).toEqual(golden("denied-envelope-pre-run"));
  });

  it("schemas accept the goldens and reject shapes the spec forbids", () => {
    expect(RunEnvelopeSchema.parse(golden("run-envelope-plain"))).toBeDefined();
    expect(RunEnvelopeSchema.parse(golden("run-envelope-denied-during-run"))).toBeDefined();
    expect(DeniedEnvelopeSchema.parse(golden("denied-envelope-pre-run"))).toBeDefined();
    const { sandbox_kind: _omitted, ...withoutKind } = golden("run-envelope-plain");
    expect(RunEnvelopeSchema.safeParse(withoutKind).success).toBe(false);
    expect(
      RunEnvelopeSchema.safeParse({
        ...golden("run-envelope-plain"),
        stdout_truncated: "…[truncated]",
      }).success,
    ).toBe(false);
    expect(
      RunEnvelopeSchema.safeParse({ ...golden("run-envelope-plain"), denied: true }).success,
    ).toBe(true);
    expect(RunEnvelopeSchema.safeParse({ ...golden("run-envelope-plain"), extra: 1 }).success).toBe(
      false,
    );
  });
});

describe("disclosure (case 23 as changed by spec §13)", () => {
  it("is omitted when quiet, even with an approval hook configured", () => {
    expect(buildDisclosure({ unbridled: false, humanGate: "none" })).toBeUndefined();
    expect(buildDisclosure({ unbridled: false, humanGate: "approval_hook" })).toBeUndefined();
  });

  it("unbridled always surfaces, with human_gate approval_hook or none", () => {
    expect(buildDisclosure({ unbridled: true, humanGate: "approval_hook" })).toEqual({
      unbridled: true,
      human_gate: "approval_hook",
    });
    expect(buildDisclosure({ unbridled: true, humanGate: "none" })).toEqual({
      unbridled: true,
      human_gate: "none",
    });
  });

  it("never changes sandbox_kind or enforcement", () => {
    const base: EnvelopeContext = {
      sandboxKind: "landlock",
      enforcement: { fs_read: "kernel" },
      disclosure: undefined,
      elapsedMs: 0,
    };
    const loud = {
      ...base,
      disclosure: buildDisclosure({ unbridled: true, humanGate: "none", engine: "brush" }),
    };
    const a = buildRunEnvelope(base, { ...ran, denials: [] });
    const b = buildRunEnvelope(loud, { ...ran, denials: [] });
    expect([b.sandbox_kind, b.enforcement]).toEqual([a.sandbox_kind, a.enforcement]);
  });

  it("denial kinds serialize as exec, open, net", () => {
    expect(
      ["exec", "open", "net"].map(
        (kind) => createDenial(kind as "exec", "t", "EXEC_NOT_GRANTED", "r").kind,
      ),
    ).toEqual(["exec", "open", "net"]);
  });
});
