import { describe, expect, it } from "vitest";
import { caveats, top } from "../../src/caveats/caveats.js";
import { compareEnforcement } from "../../src/enforcement/axis-enforcement.js";
import { effectiveSandboxKind } from "../../src/enforcement/effective-sandbox-kind.js";
import {
  CONFINED_FLOOR,
  DEFAULT_FLOOR,
  floorFromScalar,
  joinFloors,
} from "../../src/enforcement/enforcement-floor.js";
import { enforcementReport } from "../../src/enforcement/enforcement-report-of.js";
import { FS_AND_EXEC_COVERAGE, NO_COVERAGE } from "../../src/enforcement/engine-coverage.js";
import { fenceStrength, unenforceableAxis } from "../../src/enforcement/floor-check.js";
import type { SandboxKind } from "../../src/enforcement/sandbox-kind.js";

const allFour = caveats({
  fs_read: { only: ["/r"] },
  fs_write: { only: ["/w"] },
  exec: { only: ["git"] },
  net: { only: ["example.com"] },
});

describe("strength floors (case 19 as changed by spec §13)", () => {
  it("the default floor is fs kernel, net kernel, exec interceptor", () => {
    expect(DEFAULT_FLOOR).toEqual({
      fs_read: "kernel",
      fs_write: "kernel",
      net: "kernel",
      exec: "interceptor",
    });
  });

  it("layering CONFINED then a weaker scalar stays CONFINED; a kernel scalar raises exec and net", () => {
    expect(joinFloors(CONFINED_FLOOR, floorFromScalar("advisory"))).toEqual(CONFINED_FLOOR);
    expect(joinFloors(CONFINED_FLOOR, floorFromScalar("kernel"))).toMatchObject({
      exec: "kernel",
      net: "kernel",
    });
  });

  it("the order is explicit: advisory < interceptor < kernel", () => {
    expect(compareEnforcement("advisory", "interceptor")).toBeLessThan(0);
    expect(compareEnforcement("interceptor", "kernel")).toBeLessThan(0);
    expect(compareEnforcement("kernel", "advisory")).toBeGreaterThan(0);
  });
});

describe("enforcementReport (case 22 and case 24 as changed by spec §13)", () => {
  it("case 22: omitted axes for an all grant; fs_write only[/w] under Landlock is {fs_write: kernel}", () => {
    expect(enforcementReport(top(), { kind: "landlock" }, FS_AND_EXEC_COVERAGE)).toEqual({});
    expect(
      enforcementReport(
        caveats({ fs_read: "all", fs_write: { only: ["/w"] }, exec: "all", net: "all" }),
        { kind: "landlock" },
        NO_COVERAGE,
      ),
    ).toEqual({
      fs_write: "kernel",
    });
  });

  it("case 24: no backend, interceptor engine: fs interceptor, exec interceptor, net advisory — never kernel", () => {
    expect(enforcementReport(allFour, { kind: "none" }, FS_AND_EXEC_COVERAGE)).toEqual({
      fs_read: "interceptor",
      fs_write: "interceptor",
      exec: "interceptor",
      net: "advisory",
    });
  });

  it("case 24: Landlock: fs kernel, exec interceptor, a host allow-list advisory; net only[] kernel", () => {
    expect(
      enforcementReport(allFour, { kind: "landlock", landlockAbi: 7 }, FS_AND_EXEC_COVERAGE),
    ).toEqual({
      fs_read: "kernel",
      fs_write: "kernel",
      exec: "interceptor",
      net: "advisory",
    });
    expect(
      enforcementReport(
        caveats({ fs_read: "all", fs_write: "all", exec: "all", net: { only: [] } }),
        { kind: "landlock", landlockAbi: 7 },
        NO_COVERAGE,
      ),
    ).toEqual({
      net: "kernel",
    });
    expect(
      enforcementReport(
        caveats({ fs_read: "all", fs_write: "all", exec: "all", net: { only: [] } }),
        { kind: "landlock", landlockAbi: 3 },
        NO_COVERAGE,
      ),
    ).toEqual({
      net: "advisory",
    });
  });

  it("case 24: the host engine (no L2 exec check) reports exec advisory without execute rules, interceptor with them", () => {
    const exec = caveats({ fs_read: "all", fs_write: "all", exec: { only: ["echo"] }, net: "all" });
    expect(enforcementReport(exec, { kind: "landlock", execRules: false }, NO_COVERAGE)).toEqual({
      exec: "advisory",
    });
    expect(enforcementReport(exec, { kind: "none" }, NO_COVERAGE)).toEqual({ exec: "advisory" });
    expect(enforcementReport(exec, { kind: "landlock" }, NO_COVERAGE)).toEqual({
      exec: "interceptor",
    });
  });

  it("case 24: AppContainer exec only[] is kernel; Seatbelt exec only[sh] is interceptor", () => {
    expect(
      enforcementReport(
        caveats({ fs_read: "all", fs_write: "all", exec: { only: [] }, net: "all" }),
        { kind: "app_container" },
        NO_COVERAGE,
      ),
    ).toEqual({ exec: "kernel" });
    expect(
      enforcementReport(
        caveats({ fs_read: "all", fs_write: "all", exec: { only: ["sh"] }, net: "all" }),
        { kind: "seatbelt" },
        FS_AND_EXEC_COVERAGE,
      ),
    ).toEqual({
      exec: "interceptor",
    });
    expect(
      enforcementReport(
        caveats({ fs_read: "all", fs_write: "all", exec: { only: ["git"] }, net: "all" }),
        { kind: "seatbelt" },
        NO_COVERAGE,
      ),
    ).toEqual({ exec: "kernel" });
  });

  it("invariant: a none backend never reports kernel on any axis", () => {
    for (const coverage of [NO_COVERAGE, FS_AND_EXEC_COVERAGE]) {
      expect(Object.values(enforcementReport(allFour, { kind: "none" }, coverage))).not.toContain(
        "kernel",
      );
    }
  });

  it("fenceStrength is the weakest restricted axis, null when nothing is restricted", () => {
    expect(fenceStrength({})).toBeNull();
    expect(fenceStrength({ fs_read: "kernel", exec: "interceptor" })).toBe("interceptor");
    expect(fenceStrength({ fs_read: "kernel", net: "advisory" })).toBe("advisory");
  });
});

describe("unenforceableAxis: the floor refusal", () => {
  it("refuses restricted fs without a kernel backend; admits an all grant under any floor", () => {
    const fs = caveats({ fs_read: { only: ["/r"] }, fs_write: "all", exec: "all", net: "all" });
    expect(
      unenforceableAxis(
        fs,
        enforcementReport(fs, { kind: "none" }, FS_AND_EXEC_COVERAGE),
        DEFAULT_FLOOR,
      ),
    ).toMatchObject({
      axis: "fs_read",
      required: "kernel",
      actual: "interceptor",
      message: "fs_read axis requires kernel but the governing backend delivers only interceptor",
    });
    expect(unenforceableAxis(top(), {}, floorFromScalar("kernel"))).toBeUndefined();
  });

  it("serves restricted exec at interceptor strength by default; a kernel scalar refuses it", () => {
    const exec = caveats({
      fs_read: "all",
      fs_write: "all",
      exec: { only: ["touch"] },
      net: "all",
    });
    const report = enforcementReport(exec, { kind: "none" }, FS_AND_EXEC_COVERAGE);
    expect(unenforceableAxis(exec, report, DEFAULT_FLOOR)).toBeUndefined();
    expect(
      unenforceableAxis(exec, report, joinFloors(DEFAULT_FLOOR, floorFromScalar("kernel"))),
    ).toMatchObject({ axis: "exec" });
  });

  it("walks fs_read, fs_write, net, exec in order; a host allow-list fails the default floor", () => {
    const report = enforcementReport(allFour, { kind: "landlock" }, FS_AND_EXEC_COVERAGE);
    expect(unenforceableAxis(allFour, report, DEFAULT_FLOOR)).toMatchObject({
      axis: "net",
      actual: "advisory",
    });
    expect(unenforceableAxis(allFour, {}, DEFAULT_FLOOR)).toMatchObject({
      axis: "fs_read",
      actual: undefined,
    });
  });
});

describe("effectiveSandboxKind (reference §10.1 as changed by spec §3)", () => {
  const cases: [string, SandboxKind, Parameters<typeof caveats>[0], SandboxKind][] = [
    ["an all grant never engages a backend", "landlock", {}, "none"],
    ["restricted fs engages Landlock", "landlock", { fs_write: { only: ["/w"] } }, "landlock"],
    ["net only[] engages Landlock", "landlock", { net: { only: [] } }, "landlock"],
    [
      "a host allow-list alone does not engage Landlock",
      "landlock",
      { net: { only: ["example.com"] } },
      "none",
    ],
    ["execute rules engage Landlock", "landlock", { exec: { only: ["git"] } }, "landlock"],
    [
      "loopback-only net engages Seatbelt",
      "seatbelt",
      { net: { only: ["localhost"] } },
      "seatbelt",
    ],
    [
      "exec allow-list does not engage AppContainer",
      "app_container",
      { exec: { only: ["git"] } },
      "none",
    ],
    ["exec only[] engages AppContainer", "app_container", { exec: { only: [] } }, "app_container"],
    ["none stays none", "none", { fs_read: { only: ["/r"] } }, "none"],
  ];
  it.each(cases)("%s", (_label, available, partial, expected) => {
    expect(effectiveSandboxKind(available, caveats({ ...top(), ...partial }))).toBe(expected);
  });

  it("net only[] needs Landlock ABI 4", () => {
    expect(
      effectiveSandboxKind(
        "landlock",
        caveats({ fs_read: "all", fs_write: "all", exec: "all", net: { only: [] } }),
        { landlockAbi: 3 },
      ),
    ).toBe("none");
  });
});
