import { describe, expect, it } from "vitest";
import { checkBlocked } from "../../src/paths/blocked-match.js";
import { defaultPathPolicy } from "../../src/paths/path-policy.js";

describe("defaultPathPolicy", () => {
  it("blocks the Linux system locations and the home credentials", () => {
    const policy = defaultPathPolicy({ platform: "linux", home: "/home/u" });
    expect(policy.blocked).toEqual([
      "/etc",
      "/var",
      "/run",
      "/sys",
      "/proc",
      "/dev",
      "/boot",
      "/home/u/.ssh",
      "/home/u/.aws",
      "/home/u/.gnupg",
      "/home/u/.config/gh",
      "/home/u/.kube",
      "/home/u/.docker",
      "/home/u/.netrc",
      "/home/u/.npmrc",
      "/home/u/.git-credentials",
      "/home/u/.config/git/credentials",
      "/home/u/.pypirc",
      "/home/u/.cargo/credentials",
      "/home/u/.cargo/credentials.toml",
      "/home/u/.gem/credentials",
      "/home/u/.config/gcloud",
      "/home/u/.azure",
      "/home/u/.oci",
      "/home/u/.terraform.d/credentials.tfrc.json",
      "/home/u/.vault-token",
      "/home/u/.password-store",
      "/home/u/.local/share/keyrings",
      "/home/u/.pgpass",
      "/home/u/.config/hub",
      "/home/u/.config/containers/auth.json",
      "/home/u/.s3cfg",
      "/home/u/.boto",
    ]);
    expect(Object.isFrozen(policy)).toBe(true);
    expect(Object.isFrozen(policy.blocked)).toBe(true);
  });

  it("adds the macOS system and keychain locations", () => {
    const policy = defaultPathPolicy({ platform: "darwin", home: "/Users/u" });
    for (const entry of ["/etc", "/private/etc", "/private/var", "/Library/Keychains"]) {
      expect(policy.blocked).toContain(entry);
    }
    expect(policy.blocked).toContain("/Users/u/Library/Keychains");
  });

  it("blocks C:\\Windows and the %APPDATA% credential folders on Windows", () => {
    const appData = "C:\\Users\\u\\AppData\\Roaming";
    const policy = defaultPathPolicy({ platform: "win32", home: "C:\\Users\\u", appData });
    expect(policy.blocked).toContain("C:\\Windows");
    expect(policy.blocked).toContain(`${appData}\\Microsoft\\Credentials`);
    expect(policy.blocked).toContain(`${appData}\\Microsoft\\Protect`);
    expect(policy.blocked).toContain("C:\\Users\\u\\.ssh");
    expect(policy.blocked).not.toContain("/etc");
  });

  it("blocks the credential names anywhere when the home is unknown", () => {
    const policy = defaultPathPolicy({ platform: "linux", home: undefined });
    expect(policy.blocked).toContain("**/.ssh");
    expect(checkBlocked(policy, "/root/.ssh/id_rsa", "read").blocked).toBe(true);
  });

  it("blocks writes (not reads) of configuration that runs code later", () => {
    const policy = defaultPathPolicy({ platform: "linux", home: "/home/u" });
    const targets = [
      "/w/.git/hooks/pre-commit",
      "/w/.git/config",
      "/w/.vscode/settings.json",
      "/w/.idea/workspace.xml",
      "/w/.claude/settings.json",
      "/w/.Cursor/MCP.json",
      "/w/.mcp.json",
      "/home/u/.bashrc",
      "/home/u/.zshrc",
      "/home/u/.profile",
      "/home/u/.agent-bridle/policy.json",
    ];
    for (const target of targets) {
      expect(checkBlocked(policy, target, "write").blocked, target).toBe(true);
      expect(checkBlocked(policy, target, "read").blocked, target).toBe(false);
    }
    expect(checkBlocked(policy, "/w/src/index.ts", "write").blocked).toBe(false);
  });
});
