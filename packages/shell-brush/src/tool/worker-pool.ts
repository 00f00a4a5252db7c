/**
 * The warm pool (spec §9, issue 20 point 3): after a call, workers are pre-started for
 * the same effective authority — as many as the calls recently in flight at once
 * (`WarmDemand`), never more than the host's `maxWarm` — all at once, not one after the
 * other. Each serves exactly one call (its take-once authority is bound at launch) and is
 * never handed to a call whose authority differs. Idle, a worker holds no request; it
 * exits on its own after its idle time or when the channel closes; the pool lets go of
 * workers over the current demand, or of another authority when it needs the room, and
 * `close()` kills them all.
 */
import type { ToolContext } from "@agent-bridle/core";
import { type DeferredAudit, deferredAudit } from "./deferred-audit.js";
import { type LaunchOptions, type LaunchResult, launchWorker } from "./launch-worker.js";
import { WarmDemand } from "./warm-demand.js";

interface Warm {
  readonly key: string;
  /** The launch's records, held for the call that takes the worker. */
  readonly audit: DeferredAudit;
  readonly launched: Promise<LaunchResult>;
  /** `launched` has settled (the worker is ready, or failed). */
  settled: boolean;
  exited: boolean;
}

export interface WorkerPoolOptions extends LaunchOptions {
  /** Pre-start workers at all. */
  readonly warm: boolean;
  /** The most workers kept ready at once (the host's bound; at least 1). */
  readonly maxWarm: number;
  /** How far back the demand looks (default 10 s). */
  readonly demandWindowMs?: number;
}

/** How long a burst keeps the pool at its size once it is over. */
const DEMAND_WINDOW_MS = 10_000;

function keyOf(cx: ToolContext): string {
  return JSON.stringify([
    cx.toolName,
    cx.caveats,
    cx.strengthFloor,
    cx.pathPolicy.blocked,
    cx.pathPolicy.writeBlocked,
    cx.humanGate,
  ]);
}

export class WorkerPool {
  /** Ready or starting, oldest first. */
  #warm: Warm[] = [];
  /** A prestart asked for but not begun: it waits for the answer to reach its caller. */
  #pending: Promise<void> | undefined;
  #closed = false;
  readonly #demand: WarmDemand;
  /** Finished calls' workers, killed and being reaped (`close()` waits for them). */
  readonly #reaping = new Set<Promise<unknown>>();

  constructor(private readonly options: WorkerPoolOptions) {
    this.#demand = new WarmDemand(options.demandWindowMs ?? DEMAND_WINDOW_MS);
  }

  /** Workers ready or starting now (for tests and diagnostics). */
  get warmCount(): number {
    return this.#warm.filter((warm) => !warm.exited).length;
  }

  /** A warm worker started for this authority that still lives, else a new one. */
  async take(cx: ToolContext): Promise<LaunchResult> {
    await this.#pending;
    const end = this.#demand.began();
    const key = keyOf(cx);
    for (;;) {
      const index = this.#warm.findIndex(
        (warm) => warm.key === key && warm.audit.host === cx.audit.host && !warm.exited,
      );
      if (index < 0) break;
      const [warm] = this.#warm.splice(index, 1) as [Warm];
      if (!warm.settled) this.#demand.starved();
      const worker = await warm.launched;
      if (worker.kind === "ready" && !warm.exited) {
        warm.audit.bind(cx.audit);
        worker.hold(true);
        void worker.outcome.then(end, end);
        return worker;
      }
      this.#discard(warm);
    }
    const launched = await launchWorker(cx, this.options);
    if (launched.kind === "ready") void launched.outcome.then(end, end);
    else end();
    return launched;
  }

  /**
   * Tops the pool up for the next calls in the background (a no-op when warm workers are
   * off), once the current answer has reached its caller: spawning forks the host on its
   * main thread for milliseconds, which the answer should not wait for.
   */
  prestart(cx: ToolContext): void {
    if (!this.options.warm || this.#closed) return;
    const pending = new Promise<void>((resolve) => {
      setImmediate(() => {
        if (this.#pending === pending) this.#pending = undefined;
        if (!this.#closed) this.#fill(cx);
        resolve();
      });
    });
    this.#pending = pending;
  }

  /** As many workers for `cx`'s authority as the demand asks, started at once. */
  #fill(cx: ToolContext): void {
    this.#warm = this.#warm.filter((warm) => !warm.exited);
    const target = this.#demand.target(Math.max(1, this.options.maxWarm));
    const key = keyOf(cx);
    const fits = (warm: Warm) => warm.key === key && warm.audit.host === cx.audit.host;
    // Over the demand (a burst is over): the oldest of this authority go first.
    let same = this.#warm.filter(fits);
    for (const extra of same.slice(0, Math.max(0, same.length - target))) this.#drop(extra);
    same = this.#warm.filter(fits);
    let wanted = target - same.length;
    // Room for them: workers of another authority go, oldest first.
    for (const other of this.#warm.filter((warm) => !fits(warm))) {
      if (this.#warm.length + wanted <= target) break;
      this.#drop(other);
    }
    wanted = Math.min(wanted, target - this.#warm.length);
    for (let i = 0; i < wanted; i += 1) this.#start(cx);
  }

  #drop(warm: Warm): void {
    this.#warm = this.#warm.filter((entry) => entry !== warm);
    this.#discard(warm);
  }

  /** Kills a worker no call will take; `close()` waits for its reap. */
  #discard(warm: Warm): void {
    this.reaping(
      warm.launched.then((worker) => {
        if (worker.kind !== "ready") return undefined;
        worker.hold(true);
        worker.kill();
        return worker.outcome;
      }),
    );
  }

  #start(cx: ToolContext): void {
    const audit = deferredAudit(cx.audit.host);
    const launched = launchWorker(cx, this.options, audit);
    const warm: Warm = { key: keyOf(cx), audit, launched, settled: false, exited: false };
    this.#warm.push(warm);
    void launched.then((worker) => {
      warm.settled = true;
      if (worker.kind !== "ready") {
        warm.exited = true;
        return;
      }
      worker.hold(false);
      void worker.outcome.then(() => {
        warm.exited = true;
        this.#warm = this.#warm.filter((entry) => entry !== warm);
      });
    });
  }

  /** Remembers a killed worker until it is reaped. */
  reaping(reaped: Promise<unknown>): void {
    this.#reaping.add(reaped);
    void reaped.finally(() => this.#reaping.delete(reaped));
  }

  /** Resolves once every pre-started worker has acknowledged its launch (or failed). */
  async ready(): Promise<void> {
    await this.#pending;
    await Promise.all(this.#warm.map((warm) => warm.launched));
  }

  async close(): Promise<void> {
    this.#closed = true;
    await this.#pending;
    const warm = this.#warm;
    this.#warm = [];
    await Promise.all(this.#reaping);
    await Promise.all(
      warm.map(async (entry) => {
        const worker = await entry.launched;
        if (worker.kind !== "ready") return;
        // Held again, so a host with nothing else pending still sees the worker reaped.
        worker.hold(true);
        worker.kill();
        await worker.outcome;
      }),
    );
  }
}
