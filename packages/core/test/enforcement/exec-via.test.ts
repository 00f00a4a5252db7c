import { describe, expect, it } from "vitest";
import { caveats, top } from "../../src/caveats/caveats.js";
import { enforcementReport } from "../../src/enforcement/enforcement-report-of.js";
import { FS_AND_EXEC_COVERAGE, NO_COVERAGE } from "../../src/enforcement/engine-coverage.js";
import { execViaOf } from "../../src/enforcement/exec-via.js";
import { buildDisclosure, DisclosureSchema } from "../../src/envelope/disclosure.js";

// ADR 0024: the host shell's restricted exec is reported at the backend's strength
// (`interceptor` under Landlock, reference §10.2) and discloses that execute rules held it.
const echoOnly = caveats({ ...top(), exec: { only: ["echo"] } });

describe("execViaOf (issue 17 point 10, the host engine's exec)", () => {
  it("no engine check + Landlock execute rules: execute_rules, at the report's interceptor strength", () => {
    const landlock = { kind: "landlock" } as const;
    expect(enforcementReport(echoOnly, landlock, NO_COVERAGE)).toEqual({ exec: "interceptor" });
    expect(execViaOf(echoOnly, landlock, NO_COVERAGE)).toBe("execute_rules");
    expect(execViaOf(echoOnly, { kind: "seatbelt" }, NO_COVERAGE)).toBe("execute_rules");
  });

  it("an engine that checks programs itself has an interceptor: nothing to disclose", () => {
    expect(execViaOf(echoOnly, { kind: "landlock" }, FS_AND_EXEC_COVERAGE)).toBeUndefined();
  });

  it("no execute rules installed, no backend, or exec unrestricted: undefined", () => {
    const noRules = { kind: "landlock", execRules: false } as const;
    expect(enforcementReport(echoOnly, noRules, NO_COVERAGE)).toEqual({ exec: "advisory" });
    expect(execViaOf(echoOnly, noRules, NO_COVERAGE)).toBeUndefined();
    expect(execViaOf(echoOnly, { kind: "none" }, NO_COVERAGE)).toBeUndefined();
    expect(execViaOf(top(), { kind: "landlock" }, NO_COVERAGE)).toBeUndefined();
  });

  it("the disclosure carries it as exec_via and the schema accepts only execute_rules", () => {
    const disclosure = buildDisclosure({
      unbridled: false,
      humanGate: "none",
      execVia: "execute_rules",
    });
    expect(disclosure).toEqual({ human_gate: "none", exec_via: "execute_rules" });
    expect(DisclosureSchema.safeParse(disclosure).success).toBe(true);
    expect(
      DisclosureSchema.safeParse({ human_gate: "none", exec_via: "interceptor" }).success,
    ).toBe(false);
  });
});
