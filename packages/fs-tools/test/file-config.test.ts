import { homedir } from "node:os";
import path from "node:path";
import { defaultPathPolicy } from "@agent-bridle/core";
import { describe, expect, it } from "vitest";
import { createFileConfig, defaultBlockedPaths } from "../src/index.js";

describe("createFileConfig", () => {
  it("has the documented defaults", () => {
    const config = createFileConfig();
    expect(config).toMatchObject({
      maxFileSize: 1024 * 1024,
      maxWriteSize: 1024 * 1024,
      maxScanSize: 64 * 1024 * 1024,
      maxListEntries: 10_000,
      allowedPaths: undefined,
      followSymlinks: false,
      baseDir: undefined,
    });
    expect(config.blockedPaths).toEqual(defaultBlockedPaths());
    expect(Object.isFrozen(config)).toBe(true);
  });

  it("defaults blockedPaths to the platform's system and credential locations and the agent configuration", () => {
    const policy = defaultBlockedPaths();
    expect(policy).toEqual(defaultPathPolicy({ platform: process.platform, home: homedir() }));
    if (process.platform === "linux") {
      for (const entry of ["/etc", "/var", "/sys", "/proc", "/dev", "/boot"]) {
        expect(policy.blocked).toContain(entry);
      }
      expect(policy.blocked).toContain(path.join(homedir(), ".ssh"));
    }
    for (const entry of ["**/.git/hooks/**", "**/.git/config", "**/.vscode/**", "**/.mcp.json"]) {
      expect(policy.writeBlocked).toContain(entry);
    }
    expect(policy.writeBlocked).toContain("**/.agent-bridle/**");
    expect(policy.writeBlocked).toContain("**/.bashrc");
  });

  it("rejects invalid options with a configuration error naming the field", () => {
    const cases: unknown[] = [
      { maxFileSize: 0 },
      { maxFileSize: 1.5 },
      { maxListEntries: 2_000_000 },
      { baseDir: "relative/dir" },
      { baseDir: "/tmp/\u0000x" },
      { followSymlinks: "yes" },
      { blockedPaths: ["/etc"] },
      { unknownOption: true },
    ];
    for (const options of cases) {
      expect(() => createFileConfig(options as never), JSON.stringify(options)).toThrow(
        expect.objectContaining({ code: "CONFIG_INVALID_OPTION" }),
      );
    }
  });

  it("resolves relative allowedPaths against baseDir, and refuses them without one", () => {
    const config = createFileConfig({ baseDir: "/srv/work", allowedPaths: ["data", "/abs"] });
    expect(config.allowedPaths).toEqual(["/srv/work/data", "/abs"]);
    expect(() => createFileConfig({ allowedPaths: ["data"] })).toThrow(
      expect.objectContaining({ code: "CONFIG_INVALID_OPTION" }),
    );
  });
});
