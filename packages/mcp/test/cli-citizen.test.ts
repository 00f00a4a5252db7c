import { spawnSync } from "node:child_process";
import { chmodSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { bridle, type CliIo, readConfigFile } from "../src/index.js";
import { bridleBin, buildPackage, serverEnv, useTempDirs, writeConfig } from "./helpers.js";

// Issue 17 points 6 and 7: errors that point at the mistake, a CLI that pipes and helps.
const tempDir = useTempDirs();

function io(cwd: string, extra: Partial<CliIo> = {}) {
  let stdout = "";
  let stderr = "";
  const value: CliIo = {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    env: {},
    cwd,
    ...extra,
  };
  return { io: value, stdout: () => stdout, stderr: () => stderr };
}

function grantJson(dir: string, exec: string[] = []): string {
  return JSON.stringify({
    fs_read: { only: [dir, "/usr", "/bin", "/lib", "/lib64"] },
    fs_write: { only: [dir] },
    exec: { only: exec },
    net: { only: [] },
    max_calls: "unlimited",
    valid_for_generation: "all",
  });
}

beforeAll(() => buildPackage(), 120_000);

describe("errors that point at the mistake", () => {
  it("a misspelt field is named with the field it was meant to be", async () => {
    const dir = tempDir();
    const run = io(dir);
    const misspelt = JSON.parse(grantJson(dir));
    misspelt.fs_raed = misspelt.fs_read;
    delete misspelt.fs_read;
    expect(await bridle(["read", "x", "--grant", JSON.stringify(misspelt)], run.io)).toBe(2);
    expect(run.stderr()).toContain('unknown field "fs_raed" (did you mean "fs_read"?)');
    expect(run.stderr()).toContain('missing field "fs_read"');
  });

  it("bad --grant JSON says where, without the usage text", async () => {
    const run = io(tempDir());
    expect(await bridle(["read", "x", "--grant", '{"fs_read": all}'], run.io)).toBe(2);
    expect(run.stderr()).toMatch(/--grant is not valid JSON: Unexpected token/);
    expect(run.stderr()).not.toContain("usage:");
  });

  it("a TOML error keeps its line and column", async () => {
    const home = tempDir();
    const file = writeConfig(home, "[caveats]\nfs_read = \n");
    await expect(readConfigFile(file)).rejects.toThrow(/is not valid TOML at line 2, column \d+/);
  });
});

describe("the bridle command as a good citizen", () => {
  it("read and ls pipe the content alone (the sandbox lines on stderr); stat prints the mode in octal", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "a.txt"), "alpha\n");
    chmodSync(join(dir, "a.txt"), 0o640);
    const read = io(dir);
    expect(await bridle(["read", "a.txt", "--grant", grantJson(dir)], read.io)).toBe(0);
    expect(read.stdout()).toBe("alpha\n");
    const stat = io(dir);
    expect(await bridle(["stat", "a.txt", "--grant", grantJson(dir)], stat.io)).toBe(0);
    expect(stat.stdout()).toContain("mode: 0640\n");
    // ls pipes the listing alone too; what the sandbox did goes to stderr
    const ls = io(dir);
    expect(await bridle(["ls", "--grant", grantJson(dir)], ls.io)).toBe(0);
    expect(ls.stdout()).toMatch(/^file\s+6\s+a\.txt\n$/);
    expect(ls.stderr()).toMatch(/sandbox: none\nenforcement: /);
  });

  it("each subcommand's --help is its own, and --version prints the version", async () => {
    const run = io(tempDir());
    expect(await bridle(["read", "--help"], run.io)).toBe(0);
    expect(run.stdout()).toMatch(/^usage: bridle read <path>/);
    expect(run.stdout()).not.toContain("bridle doctor");
    const version = io(tempDir());
    expect(await bridle(["--version"], version.io)).toBe(0);
    expect(version.stdout()).toMatch(/^bridle \d+\.\d+\.\d+/);
  });

  it("`bridle mcp --help` prints its usage and exits instead of serving", () => {
    const home = tempDir();
    const run = spawnSync(process.execPath, [bridleBin, "mcp", "--help"], {
      env: serverEnv(home),
      input: "",
      encoding: "utf8",
      timeout: 20_000,
    });
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^usage: bridle mcp/);
    expect(run.stderr).not.toContain("DENY-ALL");
  });

  it.skipIf(process.platform !== "linux")(
    "`bridle run` uses the server's grant from AGENT_BRIDLE_CAVEATS when no --grant is given",
    async () => {
      const dir = tempDir();
      const run = io(dir, { env: { AGENT_BRIDLE_CAVEATS: grantJson(dir, ["touch"]) } });
      // `ls` is not in that grant (the demo grant has it): refused with 126.
      const code = await bridle(["run", "--", "ls; touch made"], run.io);
      expect(run.stderr()).toContain("bridle: grant from AGENT_BRIDLE_CAVEATS");
      expect(code).toBe(0);
      expect(run.stdout()).toBe("");
      expect(run.stderr()).toContain("EXEC_NOT_GRANTED");
      expect(readdirSync(dir)).toEqual(["made"]);
    },
  );

  it("`bridle run` uses [caveats] of config.toml when no --grant is given", async () => {
    const dir = tempDir();
    const home = tempDir();
    writeConfig(
      home,
      `[caveats]\nfs_read = { only = ["${dir}"] }\nfs_write = { only = [] }\nexec = { only = [] }\nnet = { only = [] }\nmax_calls = { at_most = 3 }\nvalid_for_generation = "all"\n`,
    );
    writeFileSync(join(dir, "x.txt"), "from the config grant\n");
    const run = io(dir, { home });
    expect(await bridle(["read", "x.txt"], run.io)).toBe(0);
    expect(run.stderr()).toContain("config.toml [caveats]");
    expect(run.stdout()).toBe("from the config grant\n");
  });

  it("inspect shows argv as the program receives it", async () => {
    const run = io(tempDir());
    expect(await bridle(["inspect", "--", `echo "a b" 'c' $HOME`], run.io)).toBe(0);
    expect(run.stdout()).toContain('argv: ["echo", "a b", "c", $HOME (expands when it runs)]');
  });
});
