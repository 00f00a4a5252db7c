/**
 * One entry of a host allow-list (`net: { only: [...] }`, network.md §3): a host name
 * (`registry.npmjs.org`), a wildcard over its subdomains (`*.github.com`: not the apex),
 * an IP literal (`127.0.0.1`, `::1`, `[::1]`), each with an optional `:port`.
 */
export interface NetHostPattern {
  /** Canonical host: lower case, no trailing dot, IPv6 without brackets; for a wildcard the suffix. */
  readonly host: string;
  readonly wildcard: boolean;
  /** An IP literal (granted literally: may reach loopback and private addresses). */
  readonly ipLiteral: boolean;
  /** Absent: any port. */
  readonly port?: number;
}

export type NetHostParse =
  | { readonly ok: true; readonly pattern: NetHostPattern }
  | { readonly ok: false; readonly reason: string };

const LABEL = /^(?!-)[a-z0-9_-]{1,63}(?<!-)$/;
const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;

function bad(reason: string): NetHostParse {
  return { ok: false, reason };
}

/** Canonical IPv4 (`127.000.0.1` stays refused: no leading zeros) or undefined. */
function ipv4(text: string): string | undefined {
  if (!IPV4.test(text)) return undefined;
  const parts = text.split(".");
  if (parts.some((part) => (part.length > 1 && part.startsWith("0")) || Number(part) > 255)) {
    return undefined;
  }
  return parts.map(Number).join(".");
}

/** Canonical IPv6 (the URL parser's compressed form) or undefined. */
function ipv6(text: string): string | undefined {
  if (!/^[0-9a-fA-F:.]+$/.test(text) || !text.includes(":")) return undefined;
  try {
    return new URL(`http://[${text}]/`).hostname.slice(1, -1);
  } catch {
    return undefined;
  }
}

function parsePort(text: string): number | undefined {
  if (!/^\d{1,5}$/.test(text)) return undefined;
  const port = Number(text);
  return port >= 1 && port <= 65535 ? port : undefined;
}

function hostName(text: string): string | undefined {
  const name = text.toLowerCase().replace(/\.$/, "");
  if (name.length === 0 || name.length > 253) return undefined;
  return name.split(".").every((label) => LABEL.test(label)) ? name : undefined;
}

/** Parses one grant entry; the reason of a refusal says what to write instead. */
export function parseNetHostPattern(entry: string): NetHostParse {
  const quoted = JSON.stringify(entry);
  if (entry.length === 0) return bad("an empty host");
  if (/\s/.test(entry)) return bad(`${quoted} holds white space: write one host name`);
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(entry) || entry.includes("/")) {
    return bad(`${quoted} is a URL, not a host: write only its host name, e.g. "example.com"`);
  }
  if (entry.includes("@")) return bad(`${quoted} holds credentials: write only the host name`);
  let rest = entry;
  let port: number | undefined;
  if (rest.startsWith("[")) {
    const close = rest.indexOf("]");
    if (close < 0) return bad(`${quoted}: an IPv6 literal in brackets lacks its "]"`);
    const after = rest.slice(close + 1);
    if (after !== "" && !after.startsWith(":")) return bad(`${quoted}: expected ":port" after "]"`);
    if (after !== "") {
      port = parsePort(after.slice(1));
      if (port === undefined) return bad(`${quoted}: the port must be a number from 1 to 65535`);
    }
    const v6 = ipv6(rest.slice(1, close));
    if (v6 === undefined) return bad(`${quoted}: not an IPv6 address`);
    return { ok: true, pattern: withPort({ host: v6, wildcard: false, ipLiteral: true }, port) };
  }
  if ((rest.match(/:/g) ?? []).length > 1) {
    const v6 = ipv6(rest);
    if (v6 === undefined) return bad(`${quoted}: not an IPv6 address (a port needs "[addr]:port")`);
    return { ok: true, pattern: { host: v6, wildcard: false, ipLiteral: true } };
  }
  const colon = rest.indexOf(":");
  if (colon >= 0) {
    port = parsePort(rest.slice(colon + 1));
    if (port === undefined) return bad(`${quoted}: the port must be a number from 1 to 65535`);
    rest = rest.slice(0, colon);
  }
  const v4 = ipv4(rest);
  if (v4 !== undefined) {
    return { ok: true, pattern: withPort({ host: v4, wildcard: false, ipLiteral: true }, port) };
  }
  if (/^[\d.]+$/.test(rest)) return bad(`${quoted}: not an IPv4 address`);
  const wildcard = rest.startsWith("*.");
  const name = hostName(wildcard ? rest.slice(2) : rest);
  if (rest.includes("*") && (!wildcard || rest.slice(2).includes("*"))) {
    return bad(`${quoted}: a wildcard is only "*." before a domain, e.g. "*.example.com"`);
  }
  if (name === undefined) return bad(`${quoted}: not a host name (letters, digits, "-", dots)`);
  if (wildcard && !name.includes(".")) {
    return bad(`${quoted}: a wildcard over a whole top-level domain; name the domain`);
  }
  return { ok: true, pattern: withPort({ host: name, wildcard, ipLiteral: false }, port) };
}

function withPort(pattern: NetHostPattern, port: number | undefined): NetHostPattern {
  return Object.freeze(port === undefined ? pattern : { ...pattern, port });
}

/** The canonical form of a host a client asked for (a name or an IP literal), or undefined. */
export function canonicalHost(host: string): string | undefined {
  const bare = host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
  return ipv4(bare) ?? ipv6(bare) ?? hostName(bare);
}

/** Whether the pattern admits the (canonical) host and port. */
export function netHostMatches(pattern: NetHostPattern, host: string, port: number): boolean {
  if (pattern.port !== undefined && pattern.port !== port) return false;
  if (!pattern.wildcard) return pattern.host === host;
  return !pattern.ipLiteral && host.endsWith(`.${pattern.host}`);
}
