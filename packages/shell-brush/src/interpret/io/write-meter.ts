/**
 * The bytes the interpreter writes to files itself in one run (redirection targets), all
 * files together, against the host's limit (ADR 0021). A program the script starts writes
 * its own files and is bounded by the kernel's file-size limit instead; pipes and devices
 * (`/dev/null`) are not files and are not counted.
 */
export interface WriteMeter {
  /** How many of `bytes` may still be written (all, some, or none once the limit is reached). */
  take(bytes: number): number;
}

/**
 * A meter of `limit` bytes; `onReached` is called each time a write is cut short (the
 * caller reports the limit once).
 */
export function writeMeter(limit: number, onReached: () => void): WriteMeter {
  let left = limit;
  return Object.freeze({
    take(bytes: number): number {
      const granted = Math.min(bytes, left);
      left -= granted;
      if (granted < bytes) onReached();
      return granted;
    },
  });
}

/** The error a write cut short by the meter fails with (bash prints its text). */
export function writeLimitError(): NodeJS.ErrnoException {
  return Object.assign(new Error("Disk quota exceeded"), { code: "EDQUOT" });
}
