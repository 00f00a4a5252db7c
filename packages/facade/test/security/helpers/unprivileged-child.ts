// The unprivileged run's child (helpers/unprivileged.ts starts it as nobody through
// setpriv, under test-kit's ts-loader.mjs): `unprivileged-child.ts <table> <export> <engine>`
// imports the table `../attacks/<table>.js`, sends each of its rows for `engine` with the
// same judge the root run uses (fixtures under $TMPDIR, host resources as this user),
// re-checks every fixture a little later, and prints one line, `KB-REPORT {json}`: each
// row's title, whether it held, and the assertion that failed.
import type { Attack } from "./attack.js";
import { rowsFor } from "./attack.js";
import type { EngineName } from "./engines.js";
import { removeFixture } from "./fixture.js";
import { expectHeld, type Pending, sendAttack } from "./judge.js";

export interface RowReport {
  readonly title: string;
  readonly passed: boolean;
  readonly error?: string;
  readonly ms: number;
}

const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, "g");

function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const detail = error as Error & { actual?: unknown; expected?: unknown };
  const parts = [`${error.name}: ${error.message}`];
  if ("expected" in detail || "actual" in detail) {
    parts.push(`expected: ${JSON.stringify(detail.expected)?.slice(0, 3000)}`);
    parts.push(`actual: ${JSON.stringify(detail.actual)?.slice(0, 3000)}`);
  }
  return parts.join("\n").replace(ANSI, "");
}

async function main(): Promise<void> {
  const [table, exportName, engine] = process.argv.slice(2) as [string, string, EngineName];
  const module = (await import(`../attacks/${table}.js`)) as Record<string, readonly Attack[]>;
  const attacks = module[exportName];
  if (!attacks) throw new Error(`../attacks/${table}.js exports no ${exportName}`);
  const rows = [...rowsFor(attacks, engine), ...rowsFor(attacks, engine, true)];
  const reports = new Map<string, RowReport>();
  const pending = new Map<string, Pending[]>();
  for (const [title, attack] of rows) {
    const started = Date.now();
    const held: Pending[] = [];
    pending.set(title, held);
    try {
      await sendAttack(engine, attack, held);
      reports.set(title, { title, passed: true, ms: Date.now() - started });
    } catch (error) {
      reports.set(title, {
        title,
        passed: false,
        error: describeError(error),
        ms: Date.now() - started,
      });
    }
  }
  // the markers are "checked again later" here too
  await new Promise((resolve) => setTimeout(resolve, 1500));
  for (const [title, held] of pending) {
    for (const { fixture, baseline, label, options } of held) {
      try {
        const report = reports.get(title);
        if (report?.passed) expectHeld(fixture, baseline, `${label} (later)`, options);
      } catch (error) {
        reports.set(title, {
          title,
          passed: false,
          error: describeError(error),
          ms: reports.get(title)?.ms ?? 0,
        });
      } finally {
        removeFixture(fixture);
      }
    }
  }
  process.stdout.write(`\nKB-REPORT ${JSON.stringify([...reports.values()])}\n`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`unprivileged child failed: ${describeError(error)}\n`);
    process.exit(2);
  },
);
