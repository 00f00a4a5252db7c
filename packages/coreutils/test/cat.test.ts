import { afterAll, beforeAll, describe, it } from "vitest";
import { type DifferentialCase, expectSameAsGnu } from "./helpers/differential.js";
import { createFixtureTree, type FixtureTree } from "./helpers/fixture-tree.js";

const INPUTS = [
  "empty",
  "no-newline",
  "lines",
  "blanks",
  "crlf",
  "nul",
  "binary",
  "latin",
  "tabs",
  "long",
  "words",
];
const FLAGS: readonly (readonly string[])[] = [
  [],
  ["-n"],
  ["-b"],
  ["-s"],
  ["-E"],
  ["-T"],
  ["-A"],
  ["-v"],
  ["-e"],
  ["-t"],
  ["-ns"],
  ["-bE"],
  ["-u"],
  ["--number", "--show-ends"],
];

function byFlag(flags: readonly string[]): DifferentialCase[] {
  return [
    ...INPUTS.map((input) => ({ argv: [...flags, input] })),
    { argv: [...flags, "blanks", "no-newline", "lines"] },
    { argv: [...flags, "-", "lines"], stdin: Buffer.from("from\n\n\nstdin") },
  ];
}

let tree: FixtureTree;
beforeAll(() => {
  tree = createFixtureTree();
});
afterAll(() => tree.remove());

describe.each(FLAGS.map((flags) => ({ label: flags.join(" ") || "(none)", flags })))(
  "cat $label",
  ({ flags }) => {
    it.each(byFlag(flags).map((testCase) => ({ ...testCase, title: testCase.argv.join(" ") })))(
      "$title",
      async (testCase) => expectSameAsGnu("cat", tree.root, testCase),
    );
  },
);

describe("cat errors and operands", () => {
  const cases: DifferentialCase[] = [
    { argv: ["nosuch"] },
    { argv: ["lines", "nosuch", "crlf"] },
    { argv: ["dir"] },
    { argv: ["a:b"] },
    { argv: ["name with space", "it's", "missing file"] },
    { argv: ["-z"] },
    { argv: ["--frobnicate"] },
    { argv: ["--num"] },
    { argv: ["--show"] },
    { argv: ["--number=3"] },
    { argv: ["-", "-"], stdin: Buffer.from("once\n") },
    { argv: [], stdin: Buffer.from("stdin only\n") },
    { argv: ["--", "-n"] },
    { argv: ["link-to-lines", "dangling"] },
    { argv: ["lines", "-n"] },
  ];
  it.each(cases.map((testCase) => ({ ...testCase, title: testCase.argv.join(" ") })))(
    "$title",
    async (testCase) => expectSameAsGnu("cat", tree.root, testCase),
  );
});
