import { dirname } from "node:path";
import { expect } from "vitest";
import type { UtilityName } from "../../src/index.js";
import { runGnu } from "./run-gnu.js";
import { runUtility } from "./run-utility.js";
import { createTestOpener } from "./test-opener.js";

/** ls -l reads user and group names; the differential runs may read both databases. */
const ID_DATABASES = ["/etc/passwd", "/etc/group"];

/** One differential case: arguments (and optional stdin) run by both implementations. */
export interface DifferentialCase {
  readonly argv: readonly string[];
  readonly stdin?: Buffer;
}

/** Runs ours in-process and GNU's as a process in `cwd`; stdout, stderr, status must match. */
export async function expectSameAsGnu(
  name: UtilityName,
  cwd: string,
  testCase: DifferentialCase,
): Promise<void> {
  const gnu = runGnu(name, testCase.argv, cwd, testCase.stdin);
  const ours = await runUtility(name, testCase.argv, {
    cwd,
    // GNU sees the fixture's real parent (`ls -la`'s `..`), so the gate lets ours see it.
    opener: createTestOpener({ root: cwd, alsoAllowed: [...ID_DATABASES, dirname(cwd)] }),
    ...(testCase.stdin === undefined ? {} : { stdin: testCase.stdin }),
  });
  expect({
    stdout: ours.stdout.toString("latin1"),
    stderr: ours.stderr.toString("latin1"),
    status: ours.status,
  }).toEqual({
    stdout: gnu.stdout.toString("latin1"),
    stderr: gnu.stderr.toString("latin1"),
    status: gnu.status,
  });
}
