import { afterAll, beforeAll, describe, it } from "vitest";
import { flagGroups, titled } from "./helpers/case-table.js";
import { type DifferentialCase, expectSameAsGnu } from "./helpers/differential.js";
import { createFixtureTree, type FixtureTree } from "./helpers/fixture-tree.js";

const FLAGS = [
  [],
  ["-1"],
  ["-a"],
  ["-A"],
  ["-l"],
  ["-lh"],
  ["-la"],
  ["-R"],
  ["-d"],
  ["-t"],
  ["-r"],
  ["-S"],
  ["-F"],
  ["-lF"],
  ["-tr"],
  ["-Sr"],
  ["-lR"],
  ["-lS"],
  ["-lt"],
  ["-AF"],
  ["-ld"],
  ["-RA"],
];

const OPERAND_SETS: readonly (readonly string[])[] = [
  [],
  ["dir"],
  ["many"],
  ["lines", "crlf", "empty"],
  ["dir", "lines", "emptydir"],
  ["link-to-lines", "link-to-dir", "dangling"],
  ["dir/", "exec.sh"],
  ["nosuch", "dir"],
];

function byFlag(flags: readonly string[]): DifferentialCase[] {
  return OPERAND_SETS.map((operands) => ({ argv: [...flags, ...operands] }));
}

let tree: FixtureTree;
beforeAll(() => {
  tree = createFixtureTree();
});
afterAll(() => tree.remove());

describe.each(flagGroups(FLAGS))("ls $label", ({ flags }) => {
  it.each(titled(byFlag(flags)))("$title", (testCase) =>
    expectSameAsGnu("ls", tree.root, testCase),
  );
});

describe("ls errors and operands", () => {
  const cases: DifferentialCase[] = [
    { argv: ["nosuch"] },
    { argv: ["nosuch", "other"] },
    { argv: ["-j"] },
    { argv: ["-z"] },
    { argv: ["--bogus"] },
    { argv: ["--c"] },
    { argv: ["--all", "--reverse", "dir"] },
    { argv: ["--almost", "dir"] },
    { argv: ["-w"] },
    { argv: ["name with space", "it's"] },
    { argv: ["-l", "big", "binary"] },
    { argv: ["-lh", "big", "many/file-39"] },
    { argv: ["-d", "."] },
    { argv: ["-R", "dir/sub"] },
    { argv: ["emptydir"] },
    { argv: ["-l", "emptydir"] },
    { argv: ["-l1"] },
    { argv: ["-1l", "dir"] },
    { argv: ["--", "-l"] },
  ];
  it.each(titled(cases))("$title", (testCase) => expectSameAsGnu("ls", tree.root, testCase));
});
