import { type ChildProcess, type StdioOptions, spawn } from "node:child_process";
import { closeSync, openSync } from "node:fs";
import type { Readable, Writable } from "node:stream";
import { assertLaunchShape } from "./assert-launch-shape.js";
import { type CappedCapture, captureCapped, concatCapped } from "./capped-capture.js";
import { inheritableHostDescriptors } from "./host-descriptors.js";
import { killProcessGroup, killProcessTree } from "./process-tree.js";
import type { LaunchRequest, SpawnResult } from "./spawn-types.js";

interface Stage {
  readonly child: ChildProcess;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function started(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    child.once("spawn", resolve);
    child.once("error", reject);
  });
}

function exitOf(child: ChildProcess): Stage["exited"] {
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
 * Spawns the stages last to first, so that each stage's stdout is the next stage's stdin
 * pipe handed over as a descriptor: bytes between stages never pass through JavaScript,
 * and the parent never reads a pipe it hands on. Every stage is detached (its own
 * session and process group).
 */
async function spawnStages(request: LaunchRequest): Promise<Stage[]> {
  const extras = request.extraDescriptors ?? [];
  const policyFd = 3 + extras.length;
  const policyText = request.wrapper?.policyText;
  const stages: Stage[] = [];
  let downstream: Writable | undefined;
  const cover = request.wrapper?.closesUnlistedDescriptors ? [] : inheritableHostDescriptors();
  const devNull = cover.length > 0 ? openSync("/dev/null", "r") : -1;
  try {
    for (let index = request.stages.length - 1; index >= 0; index -= 1) {
      const argv = request.stages[index] as readonly string[];
      const wrapped = request.wrapper ? request.wrapper.wrap(argv, policyFd) : argv;
      const first = index === 0;
      const listed: StdioOptions & unknown[] = [
        first ? (request.stdin ?? "ignore") : "pipe",
        downstream ?? "pipe",
        "pipe",
        ...extras,
        ...(policyText === undefined ? [] : ["pipe" as const]),
      ];
      const stdio = stdioFor(listed, cover, devNull);
      const child = spawn(wrapped[0] as string, wrapped.slice(1), {
        cwd: request.cwd,
        env: request.env,
        stdio,
        detached: true,
        windowsHide: true,
      });
      const exited = exitOf(child);
      try {
        await started(child);
      } catch (error) {
        for (const stage of stages) killProcessTree(stage.child.pid as number);
        throw error;
      }
      downstream?.destroy();
      if (policyText !== undefined) {
        const channel = child.stdio[policyFd] as Writable;
        channel.on("error", () => {});
        channel.end(policyText);
      }
      downstream = first ? undefined : (child.stdin as Writable);
      stages.unshift({ child, exited });
    }
  } finally {
    if (devNull >= 0) closeSync(devNull);
  }
  return stages;
}

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
  const stdout = captureCapped(last.child.stdout as Readable, cap, (chunk) =>
    session?.emit("stdout", chunk),
  );
  const stderrs: CappedCapture[] = stages.map((stage) =>
    captureCapped(stage.child.stderr as Readable, cap, (chunk) => session?.emit("stderr", chunk)),
  );
  const captures = [stdout, ...stderrs];

  let timedOut = false;
  let cancelled = false;
  const stop = new AbortController();
  const killAll = () => {
    for (const stage of stages) killProcessTree(stage.child.pid as number);
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
