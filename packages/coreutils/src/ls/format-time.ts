// `ls -l`'s default time style in the C locale: "%b %e %H:%M" for times in the last
// six months (and not in the future), "%b %e  %Y" otherwise.

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const SIX_MONTHS_NS = (31_556_952n / 2n) * 1_000_000_000n;

const two = (value: number) => String(value).padStart(2, "0");

/** Formats a modification time (ns since the epoch) against `nowNs`, in local time. */
export function formatTime(timeNs: bigint, nowNs: bigint): string {
  const date = new Date(Number(timeNs / 1_000_000n));
  const month = MONTHS[date.getMonth()] as string;
  const day = String(date.getDate()).padStart(2, " ");
  const recent = timeNs > nowNs - SIX_MONTHS_NS && timeNs < nowNs;
  if (recent) return `${month} ${day} ${two(date.getHours())}:${two(date.getMinutes())}`;
  return `${month} ${day}  ${date.getFullYear()}`;
}
