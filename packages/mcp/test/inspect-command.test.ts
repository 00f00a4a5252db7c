import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { bridle, type CliIo } from "../src/index.js";
import { useTempDirs } from "./helpers.js";

const tempDir = useTempDirs();

function io(cwd: string) {
  let stdout = "";
  let stderr = "";
  const value: CliIo = {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    env: {},
    cwd,
  };
  return { io: value, stdout: () => stdout, stderr: () => stderr };
}

const CASE_50 =
  'ls -1 $(find . -name "*.rs" -type f -exec wc -l {} + 2>/dev/null | sort -nr | head -10)';

describe("bridle inspect", () => {
  it("prints a readable summary of what the script would run, and runs nothing", async () => {
    const dir = tempDir();
    const run = io(dir);
    const cmd = `${CASE_50}; touch ${join(dir, "marker")} >$(touch ${join(dir, "other")})`;
    expect(await bridle(["inspect", "--", cmd], run.io)).toBe(0);
    const summary = run.stdout();
    expect(summary).toContain(`parsed only, nothing ran): ${cmd}`);
    expect(summary).toContain(`ls: ${CASE_50}`);
    expect(summary).toContain("command substitution: $(find");
    expect(summary).toContain("      find: find . -name");
    expect(summary).toContain("find runs wc: -exec wc -l {} +");
    expect(summary).toContain("redirect: fd 2 write /dev/null");
    expect(summary).toContain("touch: touch");
    expect(summary).toContain("warnings:");
    expect(summary).toContain("pipeline topology is not encoded");
    expect(run.stderr()).toBe("");
    expect(readdirSync(dir)).toEqual([]);
  });

  it("prints the raw shell_inspection with --json", async () => {
    const run = io(tempDir());
    expect(await bridle(["inspect", "--json", CASE_50], run.io)).toBe(0);
    const inspection = JSON.parse(run.stdout());
    expect(inspection.schema_version).toBe(1);
    expect(inspection.source).toBe(CASE_50);
    expect(inspection.commands[0].program).toBe("ls");
    expect(inspection.constructs[0].inspection.commands[0].descendant_execs[0].program).toBe("wc");
  });

  it("fails closed with the reason and exit code 1", async () => {
    const run = io(tempDir());
    expect(await bridle(["inspect", "--", "eval 'rm -rf x'"], run.io)).toBe(1);
    expect(run.stdout()).toBe("");
    expect(run.stderr()).toBe(
      "bridle: inspection failed closed: `eval` can run a command that is absent from the inventory\n",
    );
    const json = io(tempDir());
    expect(await bridle(["inspect", "--json", "--", "echo $(uname"], json.io)).toBe(1);
    expect(JSON.parse(json.stdout()).inspection_error).toMatch(/^malformed syntax/);
  });

  it("needs a command (usage error, exit 2)", async () => {
    const run = io(tempDir());
    expect(await bridle(["inspect"], run.io)).toBe(2);
    expect(run.stderr()).toContain("missing the command: bridle inspect");
  });
});
