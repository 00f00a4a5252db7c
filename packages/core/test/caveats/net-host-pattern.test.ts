import { describe, expect, it } from "vitest";
import { parseCaveats } from "../../src/caveats/caveats.js";
import {
  canonicalHost,
  netHostMatches,
  parseNetHostPattern,
} from "../../src/caveats/net-host-pattern.js";

function pattern(entry: string) {
  const parsed = parseNetHostPattern(entry);
  if (!parsed.ok) throw new Error(parsed.reason);
  return parsed.pattern;
}

describe("net host patterns (network.md §3)", () => {
  it("parses names, wildcards, IP literals and ports", () => {
    expect(pattern("Registry.NPMjs.org.")).toEqual({
      host: "registry.npmjs.org",
      wildcard: false,
      ipLiteral: false,
    });
    expect(pattern("*.github.com")).toMatchObject({ host: "github.com", wildcard: true });
    expect(pattern("localhost:3000")).toMatchObject({ host: "localhost", port: 3000 });
    expect(pattern("127.0.0.1:8080")).toMatchObject({ host: "127.0.0.1", ipLiteral: true });
    expect(pattern("::1")).toMatchObject({ host: "::1", ipLiteral: true });
    expect(pattern("[0:0::1]:443")).toMatchObject({ host: "::1", port: 443 });
  });

  it.each([
    ["https://registry.npmjs.org", "is a URL"],
    ["example.com/path", "is a URL"],
    ["user@example.com", "credentials"],
    ["*", "wildcard"],
    ["*example.com", "wildcard"],
    ["foo.*.com", "wildcard"],
    ["*.com", "top-level domain"],
    ["example.com:0", "port"],
    ["example.com:65536", "port"],
    ["example.com:http", "port"],
    ["256.1.1.1", "IPv4"],
    ["exa mple.com", "white space"],
    ["-bad.com", "not a host name"],
    ["", "empty"],
  ])("refuses %j with a reason that says what is wrong (%s)", (entry, why) => {
    const parsed = parseNetHostPattern(entry);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.reason).toContain(why);
  });

  it("wildcards match subdomains, not the apex; ports bind when given", () => {
    const gh = pattern("*.github.com");
    expect(netHostMatches(gh, "api.github.com", 443)).toBe(true);
    expect(netHostMatches(gh, "a.b.github.com", 80)).toBe(true);
    expect(netHostMatches(gh, "github.com", 443)).toBe(false);
    expect(netHostMatches(gh, "evilgithub.com", 443)).toBe(false);
    const dev = pattern("localhost:3000");
    expect(netHostMatches(dev, "localhost", 3000)).toBe(true);
    expect(netHostMatches(dev, "localhost", 3001)).toBe(false);
  });

  it("canonicalizes what a client asks for", () => {
    expect(canonicalHost("EXAMPLE.com.")).toBe("example.com");
    expect(canonicalHost("[::0001]")).toBe("::1");
    expect(canonicalHost("a b")).toBeUndefined();
  });

  it("a grant with a bad net entry is a configuration error naming it", () => {
    const grant = {
      fs_read: "all",
      fs_write: "all",
      exec: "all",
      net: { only: ["https://example.com"] },
      max_calls: "unlimited",
      valid_for_generation: "all",
    };
    expect(() => parseCaveats(grant)).toThrow(/net\.only\.0: "https:\/\/example\.com" is a URL/);
    expect(parseCaveats({ ...grant, net: { only: ["*.example.com:443"] } }).net).toEqual({
      only: ["*.example.com:443"],
    });
  });
});
