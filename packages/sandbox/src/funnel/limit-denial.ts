import { createDenial, type Denial } from "@agent-bridle/core";
import type { ResourceLimits } from "../backend/resource-limits.js";
import { EXCEEDED_LIMITS, type ExceededLimit } from "./limit-trailer.js";

/** `n` bytes the way a person says it: `64 MiB`, `1 GiB`, else the exact count. */
function bytesText(n: number): string {
  for (const [unit, size] of [
    ["GiB", 1024 ** 3],
    ["MiB", 1024 ** 2],
    ["KiB", 1024],
  ] as const) {
    if (n >= size && n % size === 0) return `${n / size} ${unit}`;
  }
  return `${n} bytes`;
}

function reasonOf(limit: ExceededLimit, limits: ResourceLimits | undefined): string {
  switch (limit) {
    case "memory": {
      const bound = limits?.treeMemoryBytes;
      const of = bound === undefined ? "" : ` (${bytesText(bound)} for all of its processes)`;
      return `limit exceeded: memory: the call ran out of its memory${of}, so the kernel killed one of its processes; work on the data in smaller pieces`;
    }
    case "processes": {
      const bound = limits?.maxProcesses;
      const of = bound === undefined ? "" : ` (${bound} processes and threads at once)`;
      return `limit exceeded: processes: the call reached its process limit${of}, so starting another one failed; start fewer at once`;
    }
    case "file_size": {
      const bound = limits?.fileSizeBytes;
      const of = bound === undefined ? "" : ` (${bytesText(bound)})`;
      return `limit exceeded: file_size: a program wrote past the call's file-size limit${of}, so that write failed and the file stops there; write smaller files`;
    }
    case "written_bytes": {
      const bound = limits?.interpreterWrittenBytes;
      const of = bound === undefined ? "" : ` (${bytesText(bound)} in all)`;
      return `limit exceeded: written_bytes: the shell's own writes to files (redirections) reached the call's limit${of}, so later writes failed; write less in one call`;
    }
  }
}

/**
 * The in-band record of a limit a call's tree ran into (`LIMIT_EXCEEDED`, the limit as
 * the target). It goes into the run envelope beside the output and the exit status:
 * the program ran and was stopped, nothing was refused before it started. `limits`
 * (what the backend applied) puts the bound into the reason.
 */
export function limitExceededDenial(
  limit: ExceededLimit,
  limits: ResourceLimits | undefined,
): Denial {
  return createDenial("exec", limit, "LIMIT_EXCEEDED", reasonOf(limit, limits));
}

function isLimitDenial(denial: Denial): denial is Denial & { readonly target: ExceededLimit } {
  return (
    denial.code === "LIMIT_EXCEEDED" && EXCEEDED_LIMITS.includes(denial.target as ExceededLimit)
  );
}

/**
 * A run's denials with one `LIMIT_EXCEEDED` per limit hit, after the others: those in
 * `exceeded` and those already among `denials` (a bash worker reports what it saw
 * itself), each once and worded from `limits`.
 */
export function withLimitDenials(
  denials: readonly Denial[],
  exceeded: readonly ExceededLimit[],
  limits: ResourceLimits | undefined,
): Denial[] {
  const hit = new Set<ExceededLimit>(exceeded);
  const others: Denial[] = [];
  for (const denial of denials) {
    if (isLimitDenial(denial)) hit.add(denial.target);
    else others.push(denial);
  }
  const added = EXCEEDED_LIMITS.filter((limit) => hit.has(limit));
  return [...others, ...added.map((limit) => limitExceededDenial(limit, limits))];
}
