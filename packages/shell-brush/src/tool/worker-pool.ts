/**
 * At most one warm worker (spec §9): after a call, one worker is pre-started for the
 * same effective authority; it serves exactly one call and is discarded when the next
 * call's authority differs. Idle, it holds no request; it exits on its own after its
 * idle time or when the channel closes, and `close()` kills it.
 */
import type { ToolContext } from "@agent-bridle/core";
import { type LaunchOptions, type LaunchResult, launchWorker } from "./launch-worker.js";

interface Warm {
  readonly key: string;
  readonly audit: ToolContext["audit"];
  readonly launched: Promise<LaunchResult>;
  exited: boolean;
}

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

function discard(warm: Warm): void {
  void warm.launched.then((worker) => {
    if (worker.kind === "ready") worker.kill();
  });
}

export class WorkerPool {
  #warm: Warm | undefined;
  /** A prestart asked for but not begun: it waits for the answer to reach its caller. */
  #pending: Promise<void> | undefined;
  #closed = false;
  /** Finished calls' workers, killed and being reaped (`close()` waits for them). */
  readonly #reaping = new Set<Promise<unknown>>();

  constructor(private readonly options: LaunchOptions & { readonly warm: boolean }) {}

  /** The warm worker when it was started for this authority and still lives, else a new one. */
  async take(cx: ToolContext): Promise<LaunchResult> {
    await this.#pending;
    const warm = this.#warm;
    this.#warm = undefined;
    if (warm !== undefined) {
      if (warm.key === keyOf(cx) && warm.audit === cx.audit && !warm.exited) {
        const worker = await warm.launched;
        if (worker.kind === "ready" && !warm.exited) {
          worker.hold(true);
          return worker;
        }
      }
      discard(warm);
    }
    return launchWorker(cx, this.options);
  }

  /**
   * Starts the next call's worker in the background (a no-op when warm workers are off),
   * once the current answer has reached its caller: spawning forks the host on its main
   * thread for milliseconds, which the answer should not wait for.
   */
  prestart(cx: ToolContext): void {
    if (!this.options.warm || this.#closed) return;
    if (this.#warm !== undefined) discard(this.#warm);
    this.#warm = undefined;
    const pending = new Promise<void>((resolve) => {
      setImmediate(() => {
        if (this.#pending === pending) this.#pending = undefined;
        if (!this.#closed && this.#warm === undefined) this.#start(cx);
        resolve();
      });
    });
    this.#pending = pending;
  }

  #start(cx: ToolContext): void {
    const launched = launchWorker(cx, this.options);
    const warm: Warm = { key: keyOf(cx), audit: cx.audit, launched, exited: false };
    this.#warm = warm;
    void launched.then((worker) => {
      if (worker.kind !== "ready") {
        warm.exited = true;
        return;
      }
      worker.hold(false);
      void worker.outcome.then(() => {
        warm.exited = true;
      });
    });
  }

  /** Remembers a killed worker until it is reaped. */
  reaping(reaped: Promise<unknown>): void {
    this.#reaping.add(reaped);
    void reaped.finally(() => this.#reaping.delete(reaped));
  }

  /** Resolves once the pre-started worker (if any) has acknowledged its launch. */
  async ready(): Promise<void> {
    await this.#pending;
    await this.#warm?.launched;
  }

  async close(): Promise<void> {
    this.#closed = true;
    await this.#pending;
    const warm = this.#warm;
    this.#warm = undefined;
    await Promise.all(this.#reaping);
    if (warm === undefined) return;
    const worker = await warm.launched;
    if (worker.kind === "ready") {
      // Held again, so a host with nothing else pending still sees the worker reaped.
      worker.hold(true);
      worker.kill();
      await worker.outcome;
    }
  }
}
