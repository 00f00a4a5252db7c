import { describe, it } from "vitest";
import { titled } from "./helpers/case-table.js";
import { type DifferentialCase, expectSameAsGnu } from "./helpers/differential.js";

const BODIES: readonly (readonly string[])[] = [
  [],
  ["hello"],
  ["a", "b", "  c  "],
  ["tab\\there"],
  ["new\\nline", "two"],
  ["stop\\chere", "never"],
  ["oct\\0101\\101\\1010\\08"],
  ["hex\\x41\\x4a\\x4G\\xZ\\x"],
  ["esc\\e\\a\\b\\f\\r\\v\\\\"],
  ["unknown\\q\\"],
  ["-x", "dash"],
  ["-n-e"],
  ["--", "dd"],
  ["café", "\u00ff"],
];

const FLAGS: readonly (readonly string[])[] = [
  [],
  ["-n"],
  ["-e"],
  ["-E"],
  ["-ne"],
  ["-e", "-E"],
  ["-En", "-e"],
];

describe.each(FLAGS.map((flags) => ({ label: flags.join(" ") || "(no flags)", flags })))(
  "echo $label",
  ({ flags }) => {
    const cases: DifferentialCase[] = BODIES.map((body) => ({ argv: [...flags, ...body] }));
    it.each(titled(cases))("$title", (testCase) =>
      expectSameAsGnu("echo", process.cwd(), testCase),
    );
  },
);
