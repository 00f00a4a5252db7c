import { describe, expect, it } from "vitest";
import { doctorExitCode } from "../src/index.js";

// Issue 17 point 1: `bridle doctor` must not exit 0 when no shell call can run.
describe("bridle doctor's exit status", () => {
  it("is 1 on Linux when the launcher is missing or its probe failed", () => {
    expect(doctorExitCode({ launcher: { found: false } }, "linux")).toBe(1);
    expect(
      doctorExitCode(
        {
          launcher: {
            found: true,
            verified: true,
            path: "/x/bridle-launch",
            source: "prebuilt",
            probe_error: "EACCES",
          } as never,
        },
        "linux",
      ),
    ).toBe(1);
  });

  it("is 0 with a working launcher, and where no launcher is used (controls)", () => {
    expect(
      doctorExitCode(
        {
          launcher: {
            found: true,
            verified: true,
            path: "/x/bridle-launch",
            source: "prebuilt",
          } as never,
        },
        "linux",
      ),
    ).toBe(0);
    expect(doctorExitCode({ launcher: { found: false } }, "win32")).toBe(0);
  });
});
