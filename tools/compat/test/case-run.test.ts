import { describe, expect, it } from "vitest";
import { planCase } from "../src/case-run.js";
import { readCompatFile } from "../src/corpus.js";

function plan(yamlCase: string, path = "basic.yaml") {
  const file = readCompatFile(path, `name: T\ncases:\n${yamlCase}`);
  return planCase(file, file.cases[0] as (typeof file.cases)[number]);
}

describe("planCase", () => {
  it("runs a stdin case as the script", () => {
    expect(plan("- name: a\n  stdin: 'echo hi\n\n    '\n")).toMatchObject({
      run: { script: "echo hi\n", bashArgs: [] },
    });
  });

  it("maps -c and option flags to a prefix of the script", () => {
    const decision = plan(
      "- name: a\n  args:\n  - -e\n  - -o\n  - pipefail\n  - -O\n  - extglob\n  - -c\n  - false\n",
    );
    expect(decision).toMatchObject({
      run: { script: "set -e; set -o pipefail; shopt -s extglob; false" },
    });
  });

  it.each([
    ["- name: a\n  skip: true\n  stdin: x\n", "marked skip in the corpus"],
    ["- name: a\n  pty: true\n  stdin: x\n", "interactive-only: needs a pty"],
    ["- name: a\n  min_oracle_version: 5.3\n  stdin: x\n", "needs bash >= 5.3"],
    [
      "- name: a\n  incompatible_os:\n  - debian\n  stdin: x\n",
      "incompatible with this OS (debian)",
    ],
    [
      "- name: a\n  args:\n  - -i\n  stdin: x\n",
      "not expressible as one call: shell invocation flag -i",
    ],
    [
      "- name: a\n  args:\n  - ./test.sh\n",
      "not expressible as one call: runs a script file given as an argument",
    ],
    [
      "- name: a\n  args:\n  - -c\n  - echo\n  - zero\n",
      "not expressible as one call: positional arguments after -c",
    ],
  ])("skips %j", (yamlCase, reason) => {
    expect(plan(yamlCase)).toEqual({ skip: reason });
  });

  it("skips interactive-only files", () => {
    expect(plan("- name: a\n  stdin: x\n", "builtins/complete.yaml")).toEqual({
      skip: "interactive-only feature (complete)",
    });
  });

  it("gives every case the file's common test files", () => {
    const file = readCompatFile(
      "x.yaml",
      "name: T\ncommon_test_files:\n- path: h.sh\n  contents: x\ncases:\n- name: a\n  stdin: y\n",
    );
    expect(file.cases[0]?.testFiles).toEqual([{ path: "h.sh", contents: "x", executable: false }]);
  });
});
