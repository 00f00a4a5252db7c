import type { Caveats } from "@agent-bridle/core";
import type { NetTestHooks, ResourceLimits } from "@agent-bridle/sandbox";
import type { EngineName, ShellCall } from "./engines.js";
import type { Fixture } from "./fixture.js";

/** One shell call of an attack; `$WS`, `$A`, `$O`, `$B`, `$P` are the fixture's paths. */
export interface AttackCall extends ShellCall {
  /** Programs added to the exec grant for this call (on top of the attack's). */
  readonly exec?: readonly string[];
  /** Send no `cwd` (the tools have no `baseDir`). */
  readonly noCwd?: boolean;
}

/** Something the test process itself does between calls (the fixture's baseline is retaken). */
export interface HostStep {
  readonly host: (fixture: Fixture) => void | Promise<void>;
}

export type Step = AttackCall | HostStep;

/** What one call gave back: the response, or the typed error a refusal threw. */
export interface Outcome {
  readonly call: AttackCall;
  readonly response: Record<string, unknown>;
  readonly thrown?: string;
}

/**
 * One attack-catalogue entry sent to a shell engine. Every entry is judged by spec §12 (no
 * canary in any response, no marker, nothing outside `$A` changed, `$A/victim` intact);
 * `check` adds what the entry itself expects (a refusal, a positive control, …).
 */
export interface Attack {
  readonly id: string;
  readonly title: string;
  /** Engines the entry does not apply to, with the reason (mirrored in the README). */
  readonly notApplicable?: Partial<Record<EngineName, string>>;
  readonly setup?: (fixture: Fixture) => void | Promise<void>;
  readonly teardown?: (fixture: Fixture) => void | Promise<void>;
  /** Programs added to the catalogue's default exec grant (`echo`, `cat`, `ls`). */
  readonly exec?: readonly string[];
  /** Axes replacing the defaults (fs_read/fs_write `$A`, net none). */
  readonly grant?: (fixture: Fixture) => Partial<Caveats>;
  /** Paths blocked on top of the Linux default policy and `$B`. */
  readonly blocked?: (fixture: Fixture) => readonly string[];
  /** The sandbox's per-call resource limits for this entry (default: the sandbox's). */
  readonly resourceLimits?: ResourceLimits;
  /** The egress proxy's test resolver for this entry (names to loopback test servers). */
  readonly netTestHooks?: NetTestHooks;
  /**
   * Judge deeper (the kernel-boundary rows): extended attributes of the outside tree,
   * host state (hostname, interfaces, routes, mounts, keys, SysV IPC) unchanged, and no
   * process left whose command line names the fixture — checked before `teardown`.
   */
  readonly deep?: boolean;
  /** The host environment during the attack (restored afterwards). */
  readonly hostEnv?: (fixture: Fixture) => Record<string, string>;
  /**
   * Engines known to FAIL the entry, with the exact failure: run as `it.fails` so the
   * suite stays green and turns red the day the engine is fixed (README, "Known failures").
   */
  readonly knownFailure?: Partial<Record<EngineName, string>>;
  readonly steps: (fixture: Fixture, engine: EngineName) => readonly Step[];
  readonly check?: (outcomes: readonly Outcome[], fixture: Fixture, engine: EngineName) => void;
}

const PLACEHOLDER = /\$(WS|A|O|B|P)(?![A-Za-z0-9_])/g;

/** The catalogue's placeholders replaced by the fixture's paths. */
export function expand(text: string, fixture: Fixture): string {
  return text.replace(PLACEHOLDER, (_match, name: "WS" | "A" | "O" | "B" | "P") => fixture[name]);
}

/** Shorthand: calls from command strings. */
export const cmds = (...list: readonly string[]): AttackCall[] => list.map((cmd) => ({ cmd }));

/**
 * The rows `it.each` runs for `engine`: `[title, attack]`, the title starting with the id;
 * `failing` selects the entries the engine is known to fail (for `it.fails`).
 */
export function rowsFor(
  attacks: readonly Attack[],
  engine: EngineName,
  failing = false,
): [string, Attack][] {
  return attacks
    .filter((attack) => attack.notApplicable?.[engine] === undefined)
    .filter((attack) => (attack.knownFailure?.[engine] !== undefined) === failing)
    .map((attack) => [`${attack.id} ${engine}: ${attack.title}`, attack]);
}
