// Runs the named egress cases (egress-cases.ts) in this process and prints one JSON line
// per case: the child that egress.test.ts starts as root and as nobody.
import { CASES } from "./egress-cases.js";
import { withScope } from "./egress-scenarios.js";

for (const name of process.argv.slice(2)) {
  const run = CASES[name];
  try {
    if (run === undefined) throw new Error(`no case ${name}`);
    const report = await withScope(run);
    process.stdout.write(`${JSON.stringify({ name, report })}\n`);
  } catch (error) {
    process.stdout.write(
      `${JSON.stringify({ name, error: String((error as Error)?.stack ?? error) })}\n`,
    );
  }
}
process.exit(0);
