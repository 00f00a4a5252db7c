import { constants } from "node:os";
import {
  buildDisclosure,
  type EnvelopeContext,
  type ExecVia,
  isUnbridled,
  type ToolContext,
} from "@agent-bridle/core";
import type { SandboxRunFacts } from "./sandbox.js";

/** A process's status as a shell reports it: its exit code, or 128+N for signal N (−1 if unknown). */
export function shellStatus(exitCode: number | null, signal: NodeJS.Signals | null): number {
  if (exitCode !== null) return exitCode;
  const number = signal === null ? undefined : constants.signals[signal];
  return number === undefined ? -1 : 128 + number;
}

/**
 * The facts of a call refused before anything ran: no sandbox was started, so the result
 * claims no strength on any axis (`sandbox_kind` `none`, an empty report), whatever the
 * backend would have applied (issue 17 point 10).
 */
export function nothingStarted(unbridled: boolean): SandboxRunFacts {
  return { report: {}, sandboxKind: "none", unbridled };
}

/**
 * What every envelope of a spawning engine carries for one call: the kind and report the
 * funnel actually applied, the disclosure (unbridled, the human gate, the engine's name,
 * the private temp directory, that the network went through the egress proxy, that the
 * backend's execute rules alone held exec, that kernel refusals are not itemised) and the time since `startedMs` (a `performance.now()` reading).
 */
export function envelopeContextOf(
  cx: ToolContext,
  facts: Pick<SandboxRunFacts, "report" | "sandboxKind"> & {
    readonly privateTmpDir?: string | undefined;
    /** `proxy`: a host allow-list's connections went through the call's egress proxy. */
    readonly netVia?: "proxy" | undefined;
    /** `execute_rules`: the backend's execute rules alone held restricted exec (ADR 0024). */
    readonly execVia?: ExecVia | undefined;
  },
  startedMs: number,
  engine?: string,
): EnvelopeContext {
  return {
    sandboxKind: facts.sandboxKind,
    enforcement: facts.report,
    disclosure: buildDisclosure({
      unbridled: isUnbridled(),
      humanGate: cx.humanGate,
      ...(engine === undefined ? {} : { engine }),
      // The per-call private temp directory the funnel granted (removed after the call).
      ...(facts.privateTmpDir === undefined ? {} : { privateTempDir: facts.privateTmpDir }),
      ...(facts.netVia === undefined ? {} : { netVia: facts.netVia }),
      ...(facts.execVia === undefined ? {} : { execVia: facts.execVia }),
      kernelRefusalsNotItemised: Object.values(facts.report).includes("kernel"),
    }),
    elapsedMs: performance.now() - startedMs,
  };
}
