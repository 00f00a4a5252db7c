import { type ChildProcess, type StdioOptions, spawn } from "node:child_process";
import { closeSync, openSync } from "node:fs";
import type { Readable, Writable } from "node:stream";
import { openPrivateChannel, type PrivateChannel } from "../channel/private-channel.js";
import type { ServedChild } from "../spawn-server/served-child.js";
import { spawnServerOf } from "../spawn-server/spawn-server.js";
import { assertLaunchShape } from "./assert-launch-shape.js";
import { type CappedCapture, captureCapped, concatCapped } from "./capped-capture.js";
import { hostDescriptorsToCover } from "./host-descriptors.js";
import { LimitTrailerFilter } from "./limit-trailer.js";
import { limitsOfRun } from "./limits-of-run.js";
import { killDescendants, killProcessGroup, killProcessTree } from "./process-tree.js";
import { servedStages } from "./served-stage.js";
import type { LaunchRequest, SpawnResult } from "./spawn-types.js";

/** What the funnel uses of a stage's process: a `ChildProcess`, or a spawn server's child. */
type StageProcess = ChildProcess | ServedChild;

interface Stage {
  readonly child: StageProcess;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** What the call reports as stdout (only the last stage has one, unless redirected away). */
  readonly stdoutCapture?: Readable | undefined;
  /** This stage's captured stderr (absent when redirected). */
  readonly stderrCapture?: Readable | undefined;
  /** `stdoutCapture` carries this stage's descriptor 2 (merged, or stderr as stdout). */
  readonly stdoutHasStderr: boolean;
}

function started(child: StageProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    child.once("spawn", resolve);
    child.once("error", reject);
  });
}

function exitOf(child: StageProcess): Stage["exited"] {
  return new Promise((resolve) => {
    child.once("exit", (code, signal) => resolve({ code, signal }));
    child.once("error", () => resolve({ code: null, signal: null }));
  });
}

/** The stdio entries: listed ones first, then `/dev/null` over every inheritable host fd. */
function stdioFor(listed: StdioOptions & unknown[], cover: readonly number[], devNull: number) {
  const stdio: unknown[] = [...listed];
  for (const fd of cover) {
    if (fd < listed.length) continue;
    while (stdio.length < fd) stdio.push("ignore");
    stdio.push(devNull);
  }
  return stdio as StdioOptions;
}

/**
 * Where a stage's stdout or stderr goes: the next stage, a host fd, a dead pipe, a
 * capture, or the next stage through a pipe the spawn server made (`linked`).
 */
type Target = Writable | number | "closed" | "capture" | "capture-err" | "linked";

/**
 * What the call reads of a started stage: one stream carrying stdout and stderr (the
 * merged private channel, or the spawn server's `2>&1`), else each as its target says.
 */
function capturesOf(
  child: StageProcess,
  out: Target,
  err: Target,
  merged: PrivateChannel | undefined,
  servedMerge: boolean,
): Pick<Stage, "stdoutCapture" | "stderrCapture" | "stdoutHasStderr"> {
  if (merged) {
    // The channel comes paused and half-open: we never write, and read until EOF.
    merged.parent.end();
    merged.parent.resume();
    return { stdoutCapture: merged.parent, stdoutHasStderr: true };
  }
  if (servedMerge) return { stdoutCapture: child.stdout ?? undefined, stdoutHasStderr: true };
  if (out === "closed") child.stdout?.destroy();
  if (err === "closed") child.stderr?.destroy();
  if (err === "capture") return { stdoutCapture: child.stderr ?? undefined, stdoutHasStderr: true };
  return {
    stdoutCapture: out === "capture" ? (child.stdout ?? undefined) : undefined,
    stderrCapture: err === "capture-err" ? (child.stderr ?? undefined) : undefined,
    stdoutHasStderr: false,
  };
}

/**
 * How many descriptors from 3 up every stage gets (the most any stage asks for; the
 * others are padded with `/dev/null`), so the launcher's policy descriptor and
 * `keep-fd` list are the same for every stage.
 */
export function descriptorSlots(
  request: Pick<LaunchRequest, "stages" | "extraDescriptors" | "stageStdio">,
): number {
  let slots = 0;
  for (let index = 0; index < request.stages.length; index += 1) {
    const own = request.stageStdio?.[index]?.extraDescriptors ?? request.extraDescriptors ?? [];
    slots = Math.max(slots, own.length);
  }
  return slots;
}

/** Some stage has fewer descriptors from 3 up than the slots (the rest are `/dev/null`). */
function padded(request: LaunchRequest, slots: number): boolean {
  return request.stages.some(
    (_, index) =>
      (request.stageStdio?.[index]?.extraDescriptors ?? request.extraDescriptors ?? []).length <
      slots,
  );
}

/** One stage through `child_process`, in its own session and process group. */
function spawnDetached(request: LaunchRequest, argv: readonly string[], stdio: StdioOptions) {
  return spawn(argv[0] as string, argv.slice(1), {
    cwd: request.cwd,
    env: request.env,
    stdio,
    detached: true,
    windowsHide: true,
  });
}

/**
 * Spawns the stages last to first, so that each stage's stdout is the next stage's stdin
 * pipe handed over as a descriptor (or, through the spawn server, a pipe the server
 * links): bytes between stages never pass through JavaScript, and the parent never reads
 * a pipe it hands on. Every stage is detached (its own session and process group).
 * `stageStdio` places host descriptors on a stage's 0/1/2 directly (no shell in between).
 */
async function spawnStages(request: LaunchRequest): Promise<Stage[]> {
  const slots = descriptorSlots(request);
  const policyFd = 3 + slots;
  const policyText = request.wrapper?.policyText;
  const stages: Stage[] = [];
  // The default stdout of the stage being spawned: the next stage's stdin, or a capture.
  let sink: Writable | "closed" | "capture" | "linked" = "capture";
  const cover = request.wrapper?.closesUnlistedDescriptors ? [] : hostDescriptorsToCover();
  const devNull = cover.length > 0 || padded(request, slots) ? openSync("/dev/null", "r") : -1;
  const wrappedAll = request.stages.map((argv) => request.wrapper?.wrap(argv, policyFd) ?? argv);
  const served = servedStages(request, wrappedAll);
  const server = served && spawnServerOf(request.wrapper?.server as string);
  try {
    for (let index = request.stages.length - 1; index >= 0; index -= 1) {
      const wrapped = wrappedAll[index] as readonly string[];
      const io = request.stageStdio?.[index] ?? {};
      const first = index === 0;
      const out: Target = io.stdout === undefined ? sink : io.stdout;
      const err: Target = io.stderr === "stdout" ? sink : (io.stderr ?? "capture-err");
      const merged: PrivateChannel | undefined =
        server === undefined && out === "capture" && err === "capture"
          ? await openPrivateChannel()
          : undefined;
      const entry = (target: Target): number | "pipe" | Writable =>
        merged ? merged.childFd : typeof target === "string" ? ("pipe" as const) : target;
      const own = io.extraDescriptors ?? request.extraDescriptors ?? [];
      const listed: StdioOptions & unknown[] = [
        io.stdin ?? (first ? (request.stdin ?? "ignore") : "pipe"),
        entry(out),
        entry(err),
        ...own,
        ...Array.from({ length: slots - own.length }, () => devNull),
        ...(policyText === undefined ? [] : ["pipe" as const]),
        // Last, past every descriptor the launcher reads: it names it (NODE_CHANNEL_FD).
        ...(request.netChannel === undefined ? [] : ["ipc" as const]),
      ];
      const stage = server ? served?.[index] : undefined;
      let child: StageProcess;
      try {
        child =
          server && stage
            ? server.spawn({ ...stage, to: stages[0]?.child as ServedChild | undefined })
            : spawnDetached(request, wrapped, stdioFor(listed, cover, devNull));
      } catch (error) {
        merged?.parent.destroy();
        throw error;
      } finally {
        merged?.releaseChildEnd();
      }
      const exited = exitOf(child);
      if (request.netChannel) request.netChannel(child as ChildProcess);
      try {
        await started(child);
      } catch (error) {
        merged?.parent.destroy();
        for (const stage of stages) killProcessTree(stage.child.pid as number, request.wrapper);
        throw error;
      }
      if (typeof sink === "object") sink.destroy();
      if (policyText !== undefined) {
        const channel = child.stdio[policyFd] as Writable;
        channel.on("error", () => {});
        channel.end(policyText);
      }
      const captures = capturesOf(child, out, err, merged, stage?.io[2] === "m");
      sink = first
        ? "capture"
        : stage
          ? "linked"
          : io.stdin === undefined
            ? (child.stdin as Writable)
            : "closed";
      stages.unshift({ child, exited, ...captures });
    }
  } finally {
    if (devNull >= 0) closeSync(devNull);
  }
  return stages;
}

/** The stdout of a call whose last stage writes elsewhere (a redirect): empty. */
const NOTHING_CAPTURED: CappedCapture = {
  closed: Promise.resolve(),
  result: () => ({ bytes: Buffer.alloc(0), truncated: false }),
  destroy: () => {},
};

/** Resolves after `ms`, or as soon as `signal` (if any) is aborted; leaves no listener behind. */
function delay(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, Math.max(0, ms));
    signal?.addEventListener("abort", done, { once: true });
  });
}

/** Whether the launched processes, their pipes and the deadline keep Node's event loop alive. */
function holdEventLoop(stages: readonly Stage[], timer: NodeJS.Timeout, held: boolean): void {
  for (const stage of stages) {
    if (held) stage.child.ref();
    else stage.child.unref();
    if (held) stage.child.channel?.ref();
    else stage.child.channel?.unref();
    for (const stream of stage.child.stdio) {
      const handle = stream as { ref?: () => void; unref?: () => void } | null;
      if (held) handle?.ref?.();
      else handle?.unref?.();
    }
  }
  if (held) timer.ref();
  else timer.unref();
}

/**
 * Runs the stages to completion, timeout or cancellation. On every path the process
 * groups are SIGKILLed and the leaders reaped; on timeout and cancellation the live
 * tree is walked too, so descendants in other sessions die. Output is captured up to
 * the cap, the excess drained and discarded.
 */
export async function launchStages(request: LaunchRequest): Promise<SpawnResult> {
  assertLaunchShape(request);
  const startedAt = performance.now();
  const deadline = startedAt + request.timeoutMs;
  request.signal?.throwIfAborted();
  const stages = await spawnStages(request);
  const last = stages[stages.length - 1] as Stage;
  const cap = request.maxOutputBytes;
  const session = request.session;
  // One filter per stream that carries a launcher's descriptor 2 (its trailer's place).
  const trailers: LimitTrailerFilter[] = [];
  const trailer = (carriesStderr: boolean) => {
    if (!request.reportsLimits || !carriesStderr) return undefined;
    const filter = new LimitTrailerFilter();
    trailers.push(filter);
    return filter;
  };
  const stdout = last.stdoutCapture
    ? captureCapped(
        last.stdoutCapture,
        cap,
        (chunk) => session?.emit("stdout", chunk),
        trailer(last.stdoutHasStderr),
      )
    : NOTHING_CAPTURED;
  const stderrs: CappedCapture[] = stages.flatMap((stage) =>
    stage.stderrCapture
      ? [
          captureCapped(
            stage.stderrCapture,
            cap,
            (chunk) => session?.emit("stderr", chunk),
            trailer(true),
          ),
        ]
      : [],
  );
  const captures = [stdout, ...stderrs];

  let timedOut = false;
  let cancelled = false;
  const stop = new AbortController();
  const killAll = () => {
    for (const stage of stages) killProcessTree(stage.child.pid as number, request.wrapper);
  };
  const onAbort = () => {
    cancelled = true;
    killAll();
    stop.abort();
  };
  request.signal?.addEventListener("abort", onAbort, { once: true });
  const timer = setTimeout(() => {
    timedOut = true;
    killAll();
    stop.abort();
  }, request.timeoutMs);
  request.onLaunched?.({
    ref: () => holdEventLoop(stages, timer, true),
    unref: () => holdEventLoop(stages, timer, false),
    end: () => {
      for (const stage of stages) {
        const pid = stage.child.pid as number;
        if (request.reportsLimits) killDescendants(pid, request.wrapper);
        else killProcessTree(pid, request.wrapper);
      }
    },
  });
  try {
    const exits = await Promise.all(stages.map((stage) => stage.exited));
    // Completion: what is left in each group (backgrounded descendants) dies now.
    for (const stage of stages) killProcessGroup(stage.child.pid as number);
    // An escaped holder of an output pipe cannot keep the call past the deadline; after
    // a kill the pipes get a short grace to deliver what is already buffered.
    const allClosed = Promise.all(captures.map((capture) => capture.closed)).then(() => true);
    const closed = await Promise.race([
      allClosed,
      delay(deadline - performance.now(), stop.signal).then(() => false),
    ]);
    if (!closed) {
      if (!stop.signal.aborted) {
        timedOut = true;
        killAll();
      }
      await Promise.race([allClosed, delay(250)]);
    }
    for (const capture of captures) capture.destroy();
    const out = stdout.result();
    const err = concatCapped(
      stderrs.map((capture) => capture.result()),
      cap,
    );
    const final = exits[exits.length - 1] as { code: number | null; signal: NodeJS.Signals | null };
    return {
      exitCode: final.code,
      signal: final.signal,
      stdout: out.bytes,
      stderr: err.bytes,
      stdoutTruncated: out.truncated,
      stderrTruncated: err.truncated,
      timedOut,
      cancelled,
      elapsedMs: performance.now() - startedAt,
      limitsExceeded: limitsOfRun(trailers, exits, request.reportsLimits === true),
    };
  } finally {
    clearTimeout(timer);
    // Also ends the grace `delay` raced against the pipes, whose timer would otherwise
    // hold the event loop open until the deadline after every call.
    stop.abort();
    request.signal?.removeEventListener("abort", onAbort);
    if (timedOut || cancelled) session?.cancel();
    else session?.finish();
  }
}
