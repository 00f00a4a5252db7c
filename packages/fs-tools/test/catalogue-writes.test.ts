// Attack catalogue §2 (writes) and the write_file parts of A100 (persistence through
// auto-run files). Each denial test also asserts that nothing was written.
import { lstat, readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createHarness, expectDenied } from "./helpers/harness.js";
import { buildTree, snapshot, useWorkspace } from "./helpers/workspace.js";

const ws = useWorkspace();

async function absent(location: string) {
  await expect(lstat(location)).rejects.toMatchObject({ code: "ENOENT" });
}

describe("attack catalogue §2: writes", () => {
  it("A34 (adapted): writing through a dangling symlink leaf is refused and creates nothing outside", async () => {
    // Refused as the escape it is (the catalogue says `dangling-link`, which would tell
    // that the outside target is missing: kernel-boundary.md §1 item 7 supersedes it).
    const created = path.join(ws.outside, "created.txt");
    await buildTree(ws.allowed, { w: { link: created } });
    for (const followSymlinks of [false, true]) {
      const tools = createHarness(ws, { config: { followSymlinks } });
      for (const mode of ["overwrite", "create", "append"]) {
        const value = await tools.call("write_file", {
          path: path.join(ws.allowed, "w"),
          content: "X",
          mode,
        });
        expectDenied(value, "FS_SYMLINK_ESCAPE");
      }
    }
    await absent(created);
    expect((await lstat(path.join(ws.allowed, "w"))).isSymbolicLink()).toBe(true);
  });

  it("A36: the agent's own control files are blocked for writes, existing or not, in every case and mode", async () => {
    await buildTree(ws.allowed, {
      ".git/hooks/pre-commit": "#!/bin/sh\nexit 0\n",
      ".vscode/settings.json": "{}",
    });
    const before = await snapshot(ws.allowed);
    const tools = createHarness(ws);
    const targets = [
      ".git/hooks/pre-commit",
      ".vscode/settings.json",
      ".claude/settings.json",
      ".Cursor/MCP.json",
      ".mcp.json",
      ".git/config",
      ".idea/workspace.xml",
      // the leash's own configuration (~/.agent-bridle/config.toml, blocked by name anywhere)
      ".agent-bridle/config.toml",
      // case and Unicode variants
      ".VSCode/settings.json",
      ".CLAUDE/settings.json",
      ".Git/Hooks/post-commit",
      ".v\u017fcode/settings.json", // LATIN SMALL LETTER LONG S folds to "s"
      ".MCP.JSON",
    ];
    for (const target of targets) {
      for (const mode of ["overwrite", "create", "append"]) {
        const value = await tools.call("write_file", {
          path: path.join(ws.allowed, target),
          content: "touch PWNED",
          mode,
          create_parents: true,
        });
        expectDenied(value, "FS_BLOCKED");
      }
    }
    expect(await snapshot(ws.allowed)).toEqual(before);
    await absent(ws.marker);
  });
});

describe("attack catalogue A100 (write_file parts): persistence through auto-run files", () => {
  it("A100: write_file to $A/.git/hooks/post-checkout is blocked", async () => {
    await buildTree(ws.allowed, { ".git/hooks": { dir: true } });
    const value = await createHarness(ws).call("write_file", {
      path: path.join(ws.allowed, ".git", "hooks", "post-checkout"),
      content: `#!/bin/sh\ntouch ${ws.marker}\n`,
    });
    expectDenied(value, "FS_BLOCKED");
    await absent(path.join(ws.allowed, ".git", "hooks", "post-checkout"));
  });

  it("A100: the write_file form of `echo x >> ~/.bashrc` is blocked even where the grant reaches the home directory", async () => {
    // A stand-in home under $WS: shell rc files are blocked by name anywhere.
    const home = path.join(ws.root, "home");
    await buildTree(home, { ".bashrc": "# rc\n" });
    const tools = createHarness(ws, {
      grant: { fs_write: { only: [home] }, fs_read: { only: [home] } },
    });
    for (const name of [".bashrc", ".profile", ".zshrc", ".bash_profile"]) {
      expectDenied(
        await tools.call("write_file", {
          path: path.join(home, name),
          content: "x\n",
          mode: "append",
        }),
        "FS_BLOCKED",
      );
    }
    expect(await readFile(path.join(home, ".bashrc"), "utf8")).toBe("# rc\n");
  });

  it("A100: auto-run locations outside the workspace (systemd user units, crontab spool) are not granted or are blocked", async () => {
    const tools = createHarness(ws);
    const unit = path.join(ws.root, "home", ".config", "systemd", "user", "evil.service");
    expectDenied(
      await tools.call("write_file", { path: unit, content: "[Service]\n", create_parents: true }),
      "FS_OUTSIDE_ALLOWED",
    );
    await absent(path.join(ws.root, "home"));
    if (process.platform === "linux") {
      const all = createHarness(ws, { grant: { fs_write: "all" } });
      const spool = "/var/spool/cron/crontabs/root";
      expectDenied(
        await all.call("write_file", { path: spool, content: "* * * * * touch /tmp/PWNED\n" }),
        "FS_BLOCKED",
      );
    }
  });

  // A100's shell parts (at, crontab, systemd-run, launchctl, schtasks) are exec grants of
  // the shell engines, not fs-tools inputs: they belong to the facade's cross-engine suite.
});
