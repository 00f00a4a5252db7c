const LOOPBACK = new Set(["localhost", "127.0.0.1", "::1"]);

/** A non-empty host set whose every host is a loopback name. */
export function isLoopbackOnly(hosts: readonly string[]): boolean {
  return hosts.length > 0 && hosts.every((host) => LOOPBACK.has(host));
}

/** Names the full loopback interface: `localhost`, or both `127.0.0.1` and `::1`. */
export function namesFullLoopback(hosts: readonly string[]): boolean {
  return (
    isLoopbackOnly(hosts) &&
    (hosts.includes("localhost") || (hosts.includes("127.0.0.1") && hosts.includes("::1")))
  );
}
