import type { Code } from "@agent-bridle/core";

/**
 * Why a script was not accepted: a `SHELL_*` code from core, a stable `target` label
 * naming the refused construct (reference §3.3 where it defines one), and its exact
 * source span.
 */
export type ShellRefusalCode = Extract<Code, `SHELL_${string}`>;

export interface ShellRefusal {
  readonly code: ShellRefusalCode;
  /** Stable label of the refused construct (the denial's `target`). */
  readonly target: string;
  /** Model-facing reason; quotes no caller text beyond the construct itself. */
  readonly reason: string;
  /** UTF-16 offsets of the offending text in the source (`end` exclusive). */
  readonly offset: number;
  readonly end: number;
  /** True for dynamic constructs, which a host inspector may explain. */
  readonly dynamic: boolean;
}

/** Thrown inside the subset check and caught once by `checkSubset`; never escapes it. */
export class ShellRefusalSignal extends Error {
  readonly refusal: ShellRefusal;
  constructor(refusal: ShellRefusal) {
    super(refusal.reason);
    this.name = "ShellRefusalSignal";
    this.refusal = refusal;
  }
}

function refusal(
  code: ShellRefusalCode,
  target: string,
  reason: string,
  offset: number,
  end: number,
): ShellRefusalSignal {
  return new ShellRefusalSignal({
    code,
    target,
    reason,
    offset,
    end: Math.max(end, offset),
    dynamic: code === "SHELL_DYNAMIC_CONSTRUCT",
  });
}

export function dynamicConstruct(target: string, offset: number, end: number): ShellRefusalSignal {
  return refusal(
    "SHELL_DYNAMIC_CONSTRUCT",
    target,
    `refused by design: ${target} computes code or arguments at run time`,
    offset,
    end,
  );
}

export function unsupportedConstruct(
  target: string,
  offset: number,
  end: number,
  detail?: string,
): ShellRefusalSignal {
  const suffix = detail === undefined ? "" : ` (${detail})`;
  return refusal(
    "SHELL_UNSUPPORTED_CONSTRUCT",
    target,
    `not supported by the confined shell engine: ${target}${suffix}`,
    offset,
    end,
  );
}

export const MALFORMED_TARGET = "malformed input";

export function malformed(detail: string, offset: number, end: number): ShellRefusalSignal {
  return refusal(
    "SHELL_PARSE_ERROR",
    MALFORMED_TARGET,
    `malformed command: ${detail}`,
    offset,
    end,
  );
}

export function parseError(
  target: string,
  detail: string,
  offset: number,
  end: number,
): ShellRefusalSignal {
  return refusal("SHELL_PARSE_ERROR", target, `refused: ${detail}`, offset, end);
}

export function limitExceeded(
  target: string,
  detail: string,
  offset: number,
  end: number,
): ShellRefusalSignal {
  return refusal("SHELL_LIMIT_EXCEEDED", target, `limit exceeded: ${detail}`, offset, end);
}
