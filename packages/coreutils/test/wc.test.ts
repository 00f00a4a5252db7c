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
  "binary",
  "latin",
  "tabs",
  "long",
  "words",
  "big",
];
const FLAGS = [
  [],
  ["-l"],
  ["-w"],
  ["-c"],
  ["-m"],
  ["-L"],
  ["-lw"],
  ["-cmL"],
  ["-lwcmL"],
  ["--lines", "--max-line-length"],
];

function byFlag(flags: readonly string[]): DifferentialCase[] {
  return [
    ...INPUTS.map((input) => ({ argv: [...flags, input] })),
    { argv: [...flags, "lines", "long", "empty"] },
    { argv: [...flags, "lines", "nosuch", "dir"] },
    { argv: [...flags], stdin: Buffer.from("from stdin\nwith words\n") },
    { argv: [...flags, "-", "big"], stdin: Buffer.from("x y\n") },
  ];
}

let tree: FixtureTree;
beforeAll(() => {
  tree = createFixtureTree();
});
afterAll(() => tree.remove());

describe.each(flagGroups(FLAGS))("wc $label", ({ flags }) => {
  it.each(titled(byFlag(flags)))("$title", (testCase) =>
    expectSameAsGnu("wc", tree.root, testCase),
  );
});

describe("wc errors and operands", () => {
  const cases: DifferentialCase[] = [
    { argv: ["nosuch"] },
    { argv: ["dir"] },
    { argv: ["-l", "dir"] },
    { argv: ["-x"] },
    { argv: ["--bogus"] },
    { argv: ["--l", "lines"] },
    { argv: ["--li", "lines"] },
    { argv: ["a:b", "name with space"] },
    { argv: ["many/file-01", "many/file-02", "many/file-03", "many/file-39"] },
    { argv: ["-c", "link-to-lines", "dangling"] },
  ];
  it.each(titled(cases))("$title", (testCase) => expectSameAsGnu("wc", tree.root, testCase));
});
