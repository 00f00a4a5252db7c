import { afterAll, beforeAll, describe, it } from "vitest";
import { flagGroups, titled } from "./helpers/case-table.js";
import { type DifferentialCase, expectSameAsGnu } from "./helpers/differential.js";
import { createFixtureTree, type FixtureTree } from "./helpers/fixture-tree.js";

const INPUTS = [
  "empty",
  "no-newline",
  "lines",
  "crlf",
  "nul",
  "latin",
  "numbers",
  "human",
  "versions",
  "fields",
  "mixed",
  "dups",
  "spaced",
  "words",
];
const FLAGS = [
  [],
  ["-r"],
  ["-n"],
  ["-nr"],
  ["-u"],
  ["-f"],
  ["-fu"],
  ["-b"],
  ["-h"],
  ["-hr"],
  ["-V"],
  ["-s", "-k1,1"],
  ["-k2"],
  ["-k2n"],
  ["-t:", "-k2n"],
  ["-t:", "-k2,2n", "-k1,1r"],
  ["-t:", "-k3"],
  ["-k1.2,1.3"],
  ["-b", "-k2"],
  ["-k2b,2"],
  ["-n", "-u"],
  ["-f", "-s"],
  ["-t", " ", "-k2"],
  ["-k1,1", "-r", "-s"],
];

function byFlag(flags: readonly string[]): DifferentialCase[] {
  return [
    ...INPUTS.map((input) => ({ argv: [...flags, input] })),
    { argv: [...flags, "dups", "mixed", "no-newline"] },
    { argv: [...flags, "-"], stdin: Buffer.from("z 3\ny 20\nx 1\ny 20\n") },
  ];
}

let tree: FixtureTree;
beforeAll(() => {
  tree = createFixtureTree();
});
afterAll(() => tree.remove());

describe.each(flagGroups(FLAGS))("sort $label", ({ flags }) => {
  it.each(titled(byFlag(flags)))("$title", (testCase) =>
    expectSameAsGnu("sort", tree.root, testCase),
  );
});

describe("sort -c, -o and errors", () => {
  const cases: DifferentialCase[] = [
    { argv: ["-c", "sorted"] },
    { argv: ["-c", "unsorted"] },
    { argv: ["-c", "dups"] },
    { argv: ["-cu", "sorted"] },
    { argv: ["-C", "unsorted"] },
    { argv: ["-c", "-n", "numbers"] },
    { argv: ["-c"], stdin: Buffer.from("b\na\n") },
    { argv: ["-c", "sorted", "dups"] },
    { argv: ["--check=quiet", "unsorted"] },
    { argv: ["--check=foo", "unsorted"] },
    { argv: ["nosuch"] },
    { argv: ["lines", "nosuch"] },
    { argv: ["dir"] },
    { argv: ["lines", "dir"] },
    { argv: ["-k0", "lines"] },
    { argv: ["-k1.0", "lines"] },
    { argv: ["-kx", "lines"] },
    { argv: ["-k1,x", "lines"] },
    { argv: ["-k1.1x", "lines"] },
    { argv: ["-t", "ab", "lines"] },
    { argv: ["-t", "", "lines"] },
    { argv: ["-t:", "-t;", "lines"] },
    { argv: ["-nh", "lines"] },
    { argv: ["-f", "-n", "-V", "lines"] },
    { argv: ["-o", "nodir/out", "lines"] },
    { argv: ["-co", "x", "lines"] },
    { argv: ["-x"] },
    { argv: ["--s"] },
    { argv: ["--reverse", "--numeric-sort", "numbers"] },
    { argv: ["-k"] },
  ];
  it.each(titled(cases))("$title", (testCase) => expectSameAsGnu("sort", tree.root, testCase));
});
