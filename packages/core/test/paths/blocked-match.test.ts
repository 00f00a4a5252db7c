import { describe, expect, it } from "vitest";
import { checkBlocked, foldPathName, matchBlockedEntry } from "../../src/paths/blocked-match.js";

describe("matchBlockedEntry: absolute entries", () => {
  it("covers the entry and everything beneath it, by components", () => {
    expect(matchBlockedEntry("/etc", "/etc")).toBe(true);
    expect(matchBlockedEntry("/etc", "/etc/shadow")).toBe(true);
    expect(matchBlockedEntry("/etc/", "/etc/ssh/sshd_config")).toBe(true);
    expect(matchBlockedEntry("/etc", "/etcetera/x")).toBe(false);
    expect(matchBlockedEntry("/etc", "/home/etc")).toBe(false);
    expect(matchBlockedEntry("/srv/data", "/srv")).toBe(false);
  });

  it("ignores case, as a case-insensitive file system does", () => {
    expect(matchBlockedEntry("/etc", "/ETC/hosts")).toBe(true);
    expect(matchBlockedEntry("/tmp/Secret", "/tmp/SECRET/x")).toBe(true);
    expect(matchBlockedEntry("/tmp/straße", "/tmp/STRASSE")).toBe(true);
  });

  it("ignores Unicode normalisation (NFC and NFD spellings agree)", () => {
    const nfc = "/tmp/caf\u00e9";
    const nfd = "/tmp/cafe\u0301";
    expect(matchBlockedEntry(nfc, `${nfd}/x`)).toBe(true);
    expect(matchBlockedEntry(nfd, `${nfc}/x`)).toBe(true);
    expect(matchBlockedEntry(nfc, "/tmp/CAF\u00c9/x")).toBe(true);
    expect(foldPathName("\u00c9")).toBe(foldPathName("e\u0301"));
  });

  it("ignores trailing dots and spaces, as Win32 does", () => {
    expect(matchBlockedEntry("/a/blocked", "/a/blocked./key.txt")).toBe(true);
    expect(matchBlockedEntry("/a/blocked", "/a/blocked /key.txt")).toBe(true);
  });

  it("compares Windows drive paths on either separator", () => {
    expect(matchBlockedEntry("C:\\Windows", "c:\\windows\\System32\\x.dll")).toBe(true);
    expect(matchBlockedEntry("C:\\Windows", "C:/WINDOWS/x")).toBe(true);
    expect(matchBlockedEntry("C:\\Windows", "D:\\Windows")).toBe(false);
    expect(matchBlockedEntry("C:\\Windows", "/Windows")).toBe(false);
  });
});

describe("matchBlockedEntry: ** patterns", () => {
  it("anchors **/name on any component", () => {
    expect(matchBlockedEntry("**/.ssh", "/home/u/.ssh")).toBe(true);
    expect(matchBlockedEntry("**/.ssh", "/home/u/.ssh/id_ed25519")).toBe(true);
    expect(matchBlockedEntry("**/.ssh", "/home/u/.SSH/id_ed25519")).toBe(true);
    expect(matchBlockedEntry("**/.ssh", "/home/u/ssh/x")).toBe(false);
    expect(matchBlockedEntry("**/.ssh", "/home/u/.ssh-notes")).toBe(false);
  });

  it("matches a component sequence; a trailing /** covers the directory itself", () => {
    const hooks = "**/.git/hooks/**";
    expect(matchBlockedEntry(hooks, "/r/.git/hooks")).toBe(true);
    expect(matchBlockedEntry(hooks, "/r/.git/hooks/pre-commit")).toBe(true);
    expect(matchBlockedEntry(hooks, "/r/.GIT/Hooks/pre-commit")).toBe(true);
    expect(matchBlockedEntry(hooks, "/r/.git/hooksx/pre-commit")).toBe(false);
    expect(matchBlockedEntry(hooks, "/r/git/hooks/pre-commit")).toBe(false);
    expect(matchBlockedEntry(hooks, "/r/.git")).toBe(false);
  });

  it("lets ** inside a pattern stand for any number of components", () => {
    const entry = "**/.git/modules/**/hooks/**";
    expect(matchBlockedEntry(entry, "/r/.git/modules/a/b/hooks/post-checkout")).toBe(true);
    expect(matchBlockedEntry(entry, "/r/.git/modules/hooks/x")).toBe(true);
    expect(matchBlockedEntry(entry, "/r/.git/modules/a/config")).toBe(false);
  });

  it("reads an entry of another shape as a name anchored anywhere (fails closed)", () => {
    expect(matchBlockedEntry("secrets/key.pem", "/srv/app/secrets/key.pem")).toBe(true);
  });

  it("stays linear on adversarial input (no backtracking)", () => {
    const pattern = `${"**/a/".repeat(50)}b`;
    const longPath = `/${"a/".repeat(5_000)}c`;
    const started = performance.now();
    expect(matchBlockedEntry(pattern, longPath)).toBe(false);
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});

describe("checkBlocked", () => {
  const policy = { blocked: ["/etc", "**/.ssh"], writeBlocked: ["**/.git/hooks/**"] };

  it("applies the write-only list to writes only", () => {
    expect(checkBlocked(policy, "/r/.git/hooks/pre-commit", "read")).toEqual({ blocked: false });
    expect(checkBlocked(policy, "/r/.git/hooks/pre-commit", "write")).toEqual({
      blocked: true,
      entry: "**/.git/hooks/**",
    });
  });

  it("applies the blocked list to both operations and names the entry", () => {
    expect(checkBlocked(policy, "/etc/shadow", "read")).toEqual({ blocked: true, entry: "/etc" });
    expect(checkBlocked(policy, "/h/.ssh/k", "write")).toEqual({ blocked: true, entry: "**/.ssh" });
    expect(checkBlocked(policy, "/srv/data/x", "write")).toEqual({ blocked: false });
  });
});
