import { caveats, only, top } from "@agent-bridle/core";
import { describe, expect, it } from "vitest";
import { createSeatbeltBackend } from "../../src/backend/seatbelt-backend.js";
import { sbplString, seatbeltProfile } from "../../src/backend/seatbelt-profile.js";

// macOS Seatbelt is EXPERIMENTAL: no macOS machine runs these profiles here, so the
// profile text is what is tested (spec §6).
const profile = (
  partial: Parameters<typeof caveats>[0],
  extra: Partial<Parameters<typeof seatbeltProfile>[0]> = {},
) =>
  seatbeltProfile({
    caveats: caveats({ ...top(), ...partial }),
    extraWriteRoots: [],
    executables: [],
    blocked: [],
    ...extra,
  });

describe("seatbeltProfile (experimental, text only)", () => {
  it("denies by default and allows everything the top grant allows", () => {
    const text = seatbeltProfile({
      caveats: top(),
      extraWriteRoots: [],
      executables: [],
      blocked: [],
    });
    expect(text.split("\n").slice(0, 2)).toEqual(["(version 1)", "(deny default)"]);
    for (const rule of [
      "(allow file-read*)",
      "(allow file-write*)",
      "(allow process-exec*)",
      "(allow network*)",
    ]) {
      expect(text).toContain(rule);
    }
  });

  it("restricted fs: the granted roots plus the runtime closure; writes only to granted roots and sinks", () => {
    const text = profile({
      fs_read: only(["/Users/a/repo"]),
      fs_write: only(["/Users/a/repo/out"]),
    });
    expect(text).toMatch(
      /\(allow file-read\* \(subpath "\/Users\/a\/repo"\) .*\(subpath "\/System"\)/,
    );
    expect(text).toContain(
      '(allow file-write* (subpath "/Users/a/repo/out") (literal "/dev/null")',
    );
    expect(text).not.toContain("(allow file-write*)\n");
    expect(text).not.toContain("(allow file-read*)\n");
  });

  it("blocked paths are denied after every allow, so they win", () => {
    const text = profile({ fs_read: only(["/Users/a"]) }, { blocked: ["/Users/a/.ssh"] });
    const deny = text.indexOf('(deny file-read* file-write* (subpath "/Users/a/.ssh"))');
    expect(deny).toBeGreaterThan(text.indexOf("(allow file-read*"));
  });

  it("restricted exec allows exactly the resolved executables; only[] executes nothing", () => {
    const text = profile({ exec: only(["git"]) }, { executables: ["/usr/bin/git"] });
    expect(text).toContain('(allow process-exec* (literal "/usr/bin/git"))');
    expect(text).not.toContain("(allow process-exec*)");
    expect(profile({ exec: only([]) })).not.toContain("process-exec");
  });

  it("network: all, loopback only, or no direct sockets at all", () => {
    expect(profile({})).toContain("(allow network*)");
    expect(profile({ net: only(["localhost"]) })).toContain(
      '(allow network* (remote ip "localhost:*"))',
    );
    expect(profile({ net: only([]) })).not.toContain("network");
    expect(profile({ net: only(["example.com"]) })).not.toContain("network");
  });

  it("quotes paths safely and refuses what cannot be quoted", () => {
    expect(sbplString('/a "b"\\c')).toBe('"/a \\"b\\"\\\\c"');
    expect(() => sbplString("relative")).toThrow(/refusing path/);
    expect(() => sbplString("/a\nb")).toThrow(/refusing path/);
  });
});

describe("createSeatbeltBackend", () => {
  it("is unavailable off macOS (Linux CI), so nothing engages it here", async () => {
    expect(await createSeatbeltBackend("linux").probe()).toMatchObject({ available: false });
  });

  it("wraps each stage in sandbox-exec -p <profile>; claims nothing when a name pattern cannot be expressed", async () => {
    const backend = createSeatbeltBackend("darwin", "/usr/bin/sandbox-exec");
    const base = { extraWriteRoots: [], runtimeExecutables: [], keepFds: [], cwd: "/", limits: {} };
    const coverage = { fs_read: false, fs_write: false, exec: false, net: false };
    const plain = await backend.prepare({
      ...base,
      coverage,
      caveats: caveats({ fs_read: "all", fs_write: only(["/tmp"]), exec: "all", net: "all" }),
      pathPolicy: { blocked: ["/etc"], writeBlocked: [] },
    });
    expect(plain.applied).toEqual({ kind: "seatbelt" });
    const argv = plain.wrap(["/bin/echo", "hi"], 3);
    expect(argv.slice(0, 2)).toEqual(["/usr/bin/sandbox-exec", "-p"]);
    expect(argv.slice(3)).toEqual(["/bin/echo", "hi"]);
    const patterned = await backend.prepare({
      ...base,
      coverage,
      caveats: caveats({ fs_read: "all", fs_write: only(["/tmp"]), exec: "all", net: "all" }),
      pathPolicy: { blocked: ["**/.ssh"], writeBlocked: [] },
    });
    expect(patterned.applied).toEqual({ kind: "none" });
    expect(patterned.unmasked).toEqual(["**/.ssh"]);
  });
});
