import { lookup } from "node:dns/promises";

/** Resolves a host name to the addresses the proxy may connect to. */
export interface HostResolver {
  resolve(host: string): Promise<readonly string[]>;
  /** Whether an address counts as internal (loopback, private, link-local, metadata…). */
  isInternal(address: string): boolean;
}

/**
 * The test harness's resolver (network.md, "Testing without the internet"): names map
 * to loopback test servers, nothing else resolves, and the listed addresses count as
 * public. Only code can pass it (a sandbox option no configuration file maps to).
 */
export interface NetTestHooks {
  readonly hosts: Readonly<Record<string, string>>;
  /** Addresses treated as public for this test (for example the test server's 127.0.0.1). */
  readonly publicAddresses?: readonly string[] | undefined;
}

export function systemResolver(isInternal: (address: string) => boolean): HostResolver {
  return Object.freeze({
    async resolve(host: string) {
      const found = await lookup(host, { all: true, verbatim: true });
      return found.map((entry) => entry.address);
    },
    isInternal,
  });
}

export function testResolver(
  hooks: NetTestHooks,
  isInternal: (address: string) => boolean,
): HostResolver {
  const hosts = new Map(Object.entries(hooks.hosts));
  const treated = new Set(hooks.publicAddresses ?? []);
  return Object.freeze({
    async resolve(host: string) {
      const address = hosts.get(host);
      if (address === undefined)
        throw Object.assign(new Error(`${host}: not found`), { code: "ENOTFOUND" });
      return [address];
    },
    isInternal: (address: string) => !treated.has(address) && isInternal(address),
  });
}
