import { existsSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import { type Attack, type AttackCall, expand, type Outcome } from "./attack.js";
import { type EngineName, engineOver, type ShellCall } from "./engines.js";
import {
  CANARY,
  type Fixture,
  makeFixture,
  removeFixture,
  type SnapshotOptions,
} from "./fixture.js";
import { hostState, leftovers } from "./host-state.js";

/** Fixtures judged once more at the end of the file (markers "checked again later"). */
export interface Pending {
  readonly fixture: Fixture;
  readonly baseline: Map<string, string>;
  readonly label: string;
  readonly options?: SnapshotOptions;
}

function withHostEnv<T>(values: Record<string, string>, body: () => Promise<T>): Promise<T> {
  const saved = new Map<string, string | undefined>();
  for (const [name, value] of Object.entries(values)) {
    saved.set(name, process.env[name]);
    process.env[name] = value;
  }
  return body().finally(() => {
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });
}

/** The held-invariants of spec §12 for one fixture at one moment. */
export function expectHeld(
  fixture: Fixture,
  baseline: Map<string, string>,
  label: string,
  options: SnapshotOptions = {},
): void {
  expect(fixture.markers(), `${label}: marker files`).toEqual([]);
  expect(Object.fromEntries(fixture.snapshot(options)), `${label}: outside $A`).toEqual(
    Object.fromEntries(baseline),
  );
  expect(existsSync(join(fixture.A, "victim")), `${label}: $A/victim`).toBe(true);
}

/**
 * Sends one attack to one engine on a fresh fixture and judges it (spec §12): no response
 * holds a canary, no marker exists, nothing outside `$A` (nor under `$B`) changed, and
 * `$A/victim` is intact; then the entry's own `check`. A refusal (in-band or a typed
 * error) and a failed command both count as held when nothing leaked or changed.
 * A `deep` entry (the kernel-boundary rows) is also judged on extended attributes, on
 * host state (hostname, interfaces, routes, mounts, keys, SysV IPC) and on processes
 * left behind (any whose command line names the fixture), before its teardown.
 */
export async function sendAttack(
  engine: EngineName,
  attack: Attack,
  pending?: Pending[],
): Promise<readonly Outcome[]> {
  const fixture = makeFixture();
  let keep = false;
  try {
    await attack.setup?.(fixture);
    const options: SnapshotOptions = { xattrs: attack.deep === true };
    let baseline = fixture.snapshot(options);
    let host = attack.deep ? hostState() : undefined;
    const shell = engineOver(engine, fixture, attack.blocked?.(fixture) ?? [], {
      resourceLimits: attack.resourceLimits,
      netTestHooks: attack.netTestHooks,
    });
    const outcomes: Outcome[] = [];
    const grant = attack.grant?.(fixture) ?? {};
    await withHostEnv(attack.hostEnv?.(fixture) ?? {}, async () => {
      for (const step of attack.steps(fixture, engine)) {
        if ("host" in step) {
          await step.host(fixture);
          baseline = fixture.snapshot(options);
          if (host) host = hostState();
          continue;
        }
        outcomes.push(await sendCall(shell.run, step, fixture, attack, grant));
      }
    });
    await shell.close();
    if (host) {
      try {
        expect(hostState(), `${attack.id} ${engine}: host state`).toEqual(host);
        expect(await leftovers(fixture.WS), `${attack.id} ${engine}: processes left`).toEqual([]);
      } finally {
        await attack.teardown?.(fixture);
      }
    } else await attack.teardown?.(fixture);
    for (const outcome of outcomes) {
      const label = `${attack.id} ${engine}: ${JSON.stringify(outcome.call.cmd ?? outcome.call.program)}`;
      expect(JSON.stringify(outcome.response), label).not.toMatch(CANARY);
    }
    expectHeld(fixture, baseline, `${attack.id} ${engine}`, options);
    attack.check?.(outcomes, fixture, engine);
    if (pending) {
      pending.push({ fixture, baseline, label: `${attack.id} ${engine}`, options });
      keep = true;
    }
    return outcomes;
  } finally {
    if (!keep) removeFixture(fixture);
  }
}

async function sendCall(
  run: ReturnType<typeof engineOver>["run"],
  step: AttackCall,
  fixture: Fixture,
  attack: Attack,
  grant: NonNullable<ReturnType<NonNullable<Attack["grant"]>>>,
): Promise<Outcome> {
  const { exec, noCwd, ...rest } = step;
  const call: ShellCall = {
    timeout_secs: 10,
    ...rest,
    ...(rest.cmd !== undefined ? { cmd: expand(rest.cmd, fixture) } : {}),
    ...(rest.args !== undefined ? { args: rest.args.map((arg) => expand(arg, fixture)) } : {}),
    ...(rest.cwd !== undefined ? { cwd: expand(rest.cwd, fixture) } : {}),
  };
  const options = { exec: [...(attack.exec ?? []), ...(exec ?? [])], grant, noCwd: !!noCwd };
  try {
    return { call, response: await run(call, options) };
  } catch (error) {
    const thrown = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    return { call, response: { thrown }, thrown };
  }
}

/** The end-of-file re-check: every fixture still holds a little later; then remove them. */
export async function recheckLater(pending: Pending[], delayMs = 1500): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, delayMs));
  try {
    for (const { fixture, baseline, label, options } of pending)
      expectHeld(fixture, baseline, `${label} (later)`, options);
  } finally {
    for (const { fixture } of pending.splice(0)) removeFixture(fixture);
  }
}

export { processesWith } from "./host-state.js";

/** Assertion helpers for `check`. */
export const responseOf = (outcomes: readonly Outcome[], index: number) => {
  const outcome = outcomes[index];
  if (!outcome) throw new Error(`no outcome ${index}`);
  return outcome.response;
};
/** The call was refused before anything ran: an in-band denial or a thrown typed error. */
export const refused = (response: Record<string, unknown>) =>
  response.denied === true && response.exit_code === undefined;
export const refusedOrThrown = (outcome: Outcome) =>
  outcome.thrown !== undefined || refused(outcome.response);
