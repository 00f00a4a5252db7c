// `ls -l`'s default time style in the C locale: "%b %e %H:%M" for times in the last
// six months (and not in the future), "%b %e  %Y" otherwise.

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const SIX_MONTHS_NS = (31_556_952n / 2n) * 1_000_000_000n;

const two = (value: number) => String(value).padStart(2, "0");

/** The wall clock in nanoseconds, to sub-microsecond precision. */
function wallClockNs(): bigint {
  return BigInt(Math.round((performance.timeOrigin + performance.now()) * 1_000_000));
}

/**
 * GNU's notion of "now" for `ls -l`: read once, and read again whenever a file looks
 * newer than it (it may have been modified since), so a file touched while `ls` runs is
 * still "recent" rather than "in the future".
 */
export class LsClock {
  #nowNs = wallClockNs();

  nowFor(timeNs: bigint): bigint {
    if (timeNs > this.#nowNs) this.#nowNs = wallClockNs();
    return this.#nowNs;
  }
}

/** Formats a modification time (ns since the epoch) in local time, as GNU `ls -l` does. */
export function formatTime(timeNs: bigint, clock: LsClock): string {
  const date = new Date(Number(timeNs / 1_000_000n));
  const month = MONTHS[date.getMonth()] as string;
  const day = String(date.getDate()).padStart(2, " ");
  const nowNs = clock.nowFor(timeNs);
  const recent = timeNs > nowNs - SIX_MONTHS_NS && timeNs <= nowNs;
  if (recent) return `${month} ${day} ${two(date.getHours())}:${two(date.getMinutes())}`;
  return `${month} ${day}  ${date.getFullYear()}`;
}
