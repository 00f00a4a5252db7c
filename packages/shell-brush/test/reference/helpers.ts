/**
 * Shared set-up for the reference cases: a bash engine over a real worker, with an
 * optional observer that records what it saw, per invocation id.
 */
import {
  type Caveats,
  caveats,
  RunEnvelopeSchema,
  type ShellInvocationId,
  type ShellOutputObserver,
  type ShellOutputStream,
  top,
} from "@agent-bridle/core";
import { useBrushRegistries } from "../tool/brush-registries.js";

export interface BrushOptions {
  /** The host's kernel backend (Landlock) instead of none. */
  readonly kernel?: boolean;
  readonly observer?: ShellOutputObserver;
  readonly maxOutputBytes?: number;
  readonly home?: string;
  /** Pre-start a warm worker after each call (default off). */
  readonly warm?: boolean;
}

const brushRegistry = useBrushRegistries();

/** A registry holding a bash engine (cold unless `warm`). */
export function brush(options: BrushOptions = {}) {
  const { tool, registry } = brushRegistry({
    ...options,
    ...(options.maxOutputBytes ? { maxOutput: options.maxOutputBytes } : {}),
  });
  /** Dispatches with a fresh grant (unspecified axes `all`); returns the raw result. */
  const dispatch = (
    args: Record<string, unknown>,
    partial: Partial<Caveats> = {},
    signal?: AbortSignal,
  ) =>
    registry.dispatch(
      "shell",
      args,
      registry.mintGrant(caveats({ ...top(), ...partial })),
      signal ? { signal } : {},
    );
  /** Dispatches and requires a run envelope. */
  const run = async (
    args: Record<string, unknown>,
    partial: Partial<Caveats> = {},
    signal?: AbortSignal,
  ) => RunEnvelopeSchema.parse(await dispatch(args, partial, signal));
  return { tool, registry, dispatch, run };
}

export interface SeenOutput {
  readonly id: ShellInvocationId;
  readonly stream: ShellOutputStream;
  readonly chunk: Buffer;
}

/** An observer that records every chunk and finish, and lets a test wait for text. */
export function recordingObserver(behaviour: { throwing?: boolean; blocked?: boolean } = {}) {
  const output: SeenOutput[] = [];
  const finished: ShellInvocationId[] = [];
  const waiters: (() => void)[] = [];
  const observer: ShellOutputObserver = {
    onOutput(id, stream, chunk): undefined | Promise<void> {
      output.push({ id, stream, chunk: Buffer.from(chunk) });
      for (const wake of waiters.splice(0)) wake();
      if (behaviour.throwing) throw new Error("observer bug");
      // A callback that never settles holds this invocation's delivery queue forever.
      if (behaviour.blocked) return new Promise<void>(() => undefined);
      return undefined;
    },
    onFinish(id) {
      finished.push(id);
    },
  };
  const text = (stream: ShellOutputStream, id?: ShellInvocationId) =>
    Buffer.concat(
      output
        .filter((seen) => seen.stream === stream && (id === undefined || seen.id === id))
        .map((seen) => seen.chunk),
    ).toString("utf8");
  /** Resolves once `stream` has shown `expected` (liveness bound: rejects after 15 s). */
  const waitFor = (stream: ShellOutputStream, expected: string) =>
    new Promise<void>((resolve, reject) => {
      const deadline = setTimeout(() => reject(new Error(`never observed ${expected}`)), 15_000);
      const check = () => {
        if (text(stream).includes(expected)) {
          clearTimeout(deadline);
          resolve();
        } else waiters.push(check);
      };
      check();
    });
  return { observer, output, finished, text, waitFor };
}

/** Lets already-queued observer deliveries run. */
export const settle = () => new Promise((resolve) => setTimeout(resolve, 100));

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
