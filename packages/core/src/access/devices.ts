/**
 * The devices a script may use whatever its grant says: no caller data is behind them,
 * so they are never judged as paths. `/dev/null` is the sink every shell redirects to
 * (read: empty; written: discarded); the others are only read.
 */
export const DEV_NULL = "/dev/null";

const FREE_DEVICES: ReadonlySet<string> = new Set([
  DEV_NULL,
  "/dev/zero",
  "/dev/urandom",
  "/dev/random",
]);

/** Whether `path` (absolute, as spelled) is a device any script may read. */
export function isFreeDevice(path: string): boolean {
  return FREE_DEVICES.has(path);
}

/** Whether `path` is the null device, the one device any script may also write. */
export function isNullDevice(path: string): boolean {
  return path === DEV_NULL;
}
