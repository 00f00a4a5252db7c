import { BlockList, isIPv4, isIPv6 } from "node:net";

/**
 * Addresses a host allow-list never reaches through a granted name (network.md §3):
 * loopback, private, link-local (cloud metadata services live there: 169.254.169.254,
 * fd00:ec2::254), carrier-grade NAT, unspecified, multicast and reserved ranges, and
 * the IPv6 forms that embed an IPv4 address. Only a grant naming the address (or
 * `localhost`) literally reaches them, so DNS rebinding cannot turn a granted name into
 * an internal address.
 */
const INTERNAL = new BlockList();
for (const [net, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const) {
  INTERNAL.addSubnet(net, prefix, "ipv4");
}
for (const [net, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["64:ff9b::", 96],
  ["64:ff9b:1::", 48],
  ["100::", 64],
  ["2001:db8::", 32],
  ["fc00::", 7],
  ["fe80::", 10],
  ["fec0::", 10],
  ["ff00::", 8],
] as const) {
  INTERNAL.addSubnet(net, prefix, "ipv6");
}

/** The IPv4 address inside an IPv4-mapped or -compatible IPv6 address, if any. */
function embeddedIpv4(address: string): string | undefined {
  const match = /^::(?:ffff:(?:0:)?)?(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (match) return match[1];
  const hex = /^::(?:ffff:(?:0:)?)?([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (!hex) return undefined;
  const high = Number.parseInt(hex[1] as string, 16);
  const low = Number.parseInt(hex[2] as string, 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join(".");
}

/** Whether the address is internal (anything but a public unicast address). */
export function isInternalAddress(address: string): boolean {
  if (isIPv4(address)) return INTERNAL.check(address, "ipv4");
  if (!isIPv6(address)) return true;
  const v4 = embeddedIpv4(address);
  if (v4 !== undefined) return INTERNAL.check(v4, "ipv4");
  return INTERNAL.check(address, "ipv6");
}
