import { afterAll, beforeAll, describe, it } from "vitest";
import { flagGroups, titled } from "./helpers/case-table.js";
import { type DifferentialCase, expectSameAsGnu } from "./helpers/differential.js";
import { createFixtureTree, type FixtureTree } from "./helpers/fixture-tree.js";

const INPUTS = ["empty", "no-newline", "lines", "blanks", "crlf", "nul", "binary", "long"];
const FLAGS = [
  [],
  ["-n", "3"],
  ["-n", "0"],
  ["-n", "-3"],
  ["-n", "-0"],
  ["-n", "-100"],
  ["-c", "5"],
  ["-c", "-5"],
  ["-c", "1K"],
  ["-c", "-70000"],
  ["-2"],
  ["-3c"],
  ["-q", "-n", "2"],
  ["-v", "-n", "1"],
  ["--lines=4"],
  ["--bytes=-1"],
];

function byFlag(flags: readonly string[]): DifferentialCase[] {
  return [
    ...INPUTS.map((input) => ({ argv: [...flags, input] })),
    { argv: [...flags, "lines", "no-newline", "empty"] },
    { argv: [...flags, "-"], stdin: Buffer.from("s1\ns2\ns3\ns4\ns5") },
  ];
}

let tree: FixtureTree;
beforeAll(() => {
  tree = createFixtureTree();
});
afterAll(() => tree.remove());

describe.each(flagGroups(FLAGS))("head $label", ({ flags }) => {
  it.each(titled(byFlag(flags)))("$title", (testCase) =>
    expectSameAsGnu("head", tree.root, testCase),
  );
});

describe("head errors and operands", () => {
  const cases: DifferentialCase[] = [
    { argv: ["nosuch"] },
    { argv: ["lines", "nosuch", "crlf"] },
    { argv: ["dir"] },
    { argv: ["lines", "dir"] },
    { argv: ["-n", "abc", "lines"] },
    { argv: ["-c", "1Q", "lines"] },
    { argv: ["-c", "99999999999999999999", "lines"] },
    { argv: ["-n", "1Y", "lines"] },
    { argv: ["-c", "2x", "lines"] },
    { argv: ["-n"] },
    { argv: ["-x"] },
    { argv: ["--nope"] },
    { argv: ["--li=2", "lines"] },
    { argv: ["lines", "-5"] },
    { argv: ["-5x", "lines"] },
    { argv: ["-1", "lines", "tabs"] },
    { argv: ["-n", "2", "-", "lines", "-"], stdin: Buffer.from("x\ny\nz\n") },
    { argv: ["-qv", "-n1", "lines"] },
    { argv: ["-c", "3kB", "long"] },
    { argv: ["-c", "+4", "lines"] },
    { argv: ["name with space", "it's"] },
    { argv: ["--quiet", "--verbose", "lines"] },
  ];
  it.each(titled(cases))("$title", (testCase) => expectSameAsGnu("head", tree.root, testCase));
});
