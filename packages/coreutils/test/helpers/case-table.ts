import type { DifferentialCase } from "./differential.js";

/** Rows for `it.each`: each case with a readable title (its argv). */
export function titled(cases: readonly DifferentialCase[]) {
  return cases.map((testCase) => ({
    ...testCase,
    title: testCase.argv.join(" ") || "(no arguments)",
  }));
}

/** `describe.each` rows: one group per flag set, labelled by its flags. */
export function flagGroups(groups: readonly (readonly string[])[]) {
  return groups.map((flags) => ({ label: flags.join(" ") || "(no flags)", flags }));
}
