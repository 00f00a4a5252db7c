import { constants } from "node:os";
import { EXCEEDED_LIMITS, type ExceededLimit, type LimitTrailerFilter } from "./limit-trailer.js";

/** The status a shell, and the launcher, give a process killed by SIGXFSZ. */
const FILE_SIZE_STATUS = 128 + constants.signals.SIGXFSZ;

interface StageExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

/** Whether a stage's exit says a write ran past RLIMIT_FSIZE. */
export function isFileSizeExit(exit: StageExit, launched: boolean): boolean {
  return exit.signal === "SIGXFSZ" || (launched && exit.code === FILE_SIZE_STATUS);
}

/**
 * The limits one run ran into, in `EXCEEDED_LIMITS` order: the trailers the launcher
 * wrote, and a stage that died of SIGXFSZ. Under the launcher (`launched`) a signal death
 * comes back as the exit status 128 + N, which a shell also returns for a child it saw
 * die so; a program that exits 153 on its own is reported as a file-size kill too.
 */
export function limitsOfRun(
  trailers: readonly LimitTrailerFilter[],
  exits: readonly StageExit[],
  launched: boolean,
): readonly ExceededLimit[] {
  const found = new Set<ExceededLimit>();
  for (const trailer of trailers) for (const limit of trailer.limits) found.add(limit);
  if (exits.some((exit) => isFileSizeExit(exit, launched))) found.add("file_size");
  return EXCEEDED_LIMITS.filter((limit) => found.has(limit));
}
