import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { bridle, type CliIo, demoGrant } from "../src/index.js";
import { useTempDirs } from "./helpers.js";

const tempDir = useTempDirs();

function io(cwd: string, stdin = "") {
  let stdout = "";
  let stderr = "";
  const value: CliIo = {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    env: {},
    cwd,
    readStdin: async () => stdin,
  };
  return { io: value, stdout: () => stdout, stderr: () => stderr };
}

function grantJson(dir: string, exec: readonly string[] = ["echo"]): string {
  return JSON.stringify({
    fs_read: { only: [dir] },
    fs_write: { only: [dir] },
    exec: { only: exec },
    net: { only: [] },
    max_calls: "unlimited",
    valid_for_generation: "all",
  });
}

describe("bridle read | ls | stat | write", () => {
  it("reads a file under the demo grant (announced on stderr), relative to the current directory", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "notes.txt"), "line one\nline two\n");
    const run = io(dir);
    expect(await bridle(["read", "notes.txt"], run.io)).toBe(0);
    // stdout is the file's text exactly (it can be piped); the summary is on stderr.
    expect(run.stdout()).toBe("line one\nline two\n");
    expect(run.stderr()).toContain("sandbox: none");
    expect(run.stderr()).toContain("enforcement: fs_read interceptor");
    expect(run.stderr()).toContain("using the demo grant");
    expect(run.stderr()).toContain(`read and write ${dir}`);
  });

  it("prints the raw envelope with --json", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "a.txt"), "alpha");
    const run = io(dir);
    expect(await bridle(["read", "a.txt", "--json", "--grant", grantJson(dir)], run.io)).toBe(0);
    const envelope = JSON.parse(run.stdout());
    expect(envelope.result.content).toBe("alpha");
    expect(envelope.schema_version).toBe(1);
    expect(run.stderr()).toBe("");
  });

  it("refuses outside the grant with exit code 1 and the denial in the summary", async () => {
    const dir = tempDir();
    const outside = tempDir();
    writeFileSync(join(outside, "secret.txt"), "canary");
    const run = io(dir);
    expect(await bridle(["read", join(outside, "secret.txt")], run.io)).toBe(1);
    expect(run.stdout()).toBe("");
    expect(run.stderr()).toContain("refused: nothing ran");
    expect(run.stderr()).toContain("[FS_OUTSIDE_ALLOWED]");
    expect(run.stderr()).not.toContain("canary");
  });

  it("lists, describes and writes", async () => {
    const dir = tempDir();
    const run = io(dir, "from stdin\n");
    expect(await bridle(["write", "new.txt", "-"], run.io)).toBe(0);
    expect(readFileSync(join(dir, "new.txt"), "utf8")).toBe("from stdin\n");
    expect(await bridle(["write", "new.txt", "more\n", "--append"], run.io)).toBe(0);
    expect(readFileSync(join(dir, "new.txt"), "utf8")).toBe("from stdin\nmore\n");
    expect(await bridle(["ls"], run.io)).toBe(0);
    expect(run.stdout()).toMatch(/file\s+16\s+new\.txt/);
    expect(await bridle(["stat", "new.txt"], run.io)).toBe(0);
    expect(run.stdout()).toContain("type: file");
  });

  it("reads --grant from a file and refuses a malformed one", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "grant.json"), grantJson(dir));
    writeFileSync(join(dir, "x.txt"), "x");
    const ok = io(dir);
    expect(await bridle(["read", "x.txt", "--grant", "grant.json"], ok.io)).toBe(0);
    const bad = io(dir);
    expect(await bridle(["read", "x.txt", "--grant", '{"fs_read":"all"}'], bad.io)).toBe(2);
    expect(bad.stderr()).toContain("CONFIG_INVALID_CAVEATS");
  });
});

describe("bridle run (the default engine: brush, the bash engine)", () => {
  it("runs full bash and prints the raw envelope with --json, exiting with its exit code", async () => {
    const dir = tempDir();
    const run = io(dir);
    const code = await bridle(
      [
        "run",
        "--json",
        "--grant",
        grantJson(dir, ["echo"]),
        "--",
        'for w in hello brush; do echo "$w"; done; exit 3',
      ],
      run.io,
    );
    const envelope = JSON.parse(run.stdout());
    expect(envelope.disclosure.engine).toBe("brush");
    if (envelope.sandbox_kind === "none") {
      // No kernel backend: the restricted fs and net axes are refused in-band.
      expect(code).toBe(1);
      expect(envelope.denied).toBe(true);
      return;
    }
    expect(code).toBe(3);
    expect(envelope.exit_code).toBe(3);
    expect(envelope.stdout).toBe("hello\nbrush\n");
    expect(envelope.enforcement).toMatchObject({ exec: "interceptor", net: "kernel" });
  });

  it("prints a readable summary by default; a program outside the grant fails with 126, and the kernel refuses a write outside it", async () => {
    const dir = tempDir();
    const outside = tempDir();
    const run = io(dir);
    const code = await bridle(
      ["run", "--", `echo summary; touch made; echo escaped > ${join(outside, "escape")}`],
      run.io,
    );
    if (run.stderr().includes("refused: nothing ran")) return;
    expect(code).toBe(1);
    // The command's output as it runs on stdout, the summary on stderr (not repeating it).
    expect(run.stdout()).toBe("summary\n");
    expect(run.stderr()).toMatch(/exit code: 1\nsandbox: \w+, engine brush\n/);
    expect(run.stderr()).not.toContain("--- stdout ---");
    expect(run.stderr()).toMatch(/enforcement: .*exec interceptor/);
    // the bash engine's exec strength is its own interceptor's: no execute-rules note
    expect(run.stderr()).not.toContain("execute rules");
    expect(run.stderr()).toContain("[FS_OUTSIDE_ALLOWED]");
    expect(run.stderr()).toContain("using the demo grant");
    expect(readdirSync(dir)).toEqual([]);
    expect(readdirSync(outside)).toEqual([]);
  });

  it("refuses an unknown engine", async () => {
    const run = io(tempDir());
    expect(await bridle(["run", "--engine", "bash", "--", "true"], run.io)).toBe(2);
    expect(run.stderr()).toContain("use --engine brush, --engine safe or --engine host");
  });
});

describe("bridle run --engine host", () => {
  it("runs a command and prints the raw envelope with --json, exiting with its exit code", async () => {
    const dir = tempDir();
    const run = io(dir);
    const code = await bridle(
      [
        "run",
        "--engine",
        "host",
        "--json",
        "--grant",
        grantJson(dir, ["echo", "bash"]),
        "--",
        "echo hello; exit 3",
      ],
      run.io,
    );
    const envelope = JSON.parse(run.stdout());
    if (envelope.sandbox_kind === "none") {
      // No kernel backend: the host engine refuses restricted grants in-band.
      expect(code).toBe(1);
      expect(envelope.denied).toBe(true);
      return;
    }
    expect(code).toBe(3);
    expect(envelope.exit_code).toBe(3);
    expect(envelope.stdout).toBe("hello\n");
    expect(envelope.disclosure.engine).toBe("sandbox-host");
    // exec interceptor is the strength; execute rules, not an interceptor, held it (ADR 0024).
    expect(envelope.enforcement.exec).toBe("interceptor");
    expect(envelope.disclosure.exec_via).toBe("execute_rules");
  });

  it("prints a readable summary by default", async () => {
    const dir = tempDir();
    const run = io(dir);
    const code = await bridle(["run", "--engine", "host", "--", "echo", "summary"], run.io);
    if (run.stderr().includes("refused: nothing ran")) return;
    expect(code).toBe(0);
    expect(run.stdout()).toBe("summary\n");
    expect(run.stderr()).toMatch(/exit code: 0\nsandbox: \w+, engine sandbox-host\n/);
    expect(run.stderr()).toContain(
      "exec interceptor (via the kernel's execute rules; the engine checks no program)",
    );
  });
});

describe("bridle run --engine safe, and usage", () => {
  it("runs the safe-subset engine with --engine safe: checked before anything runs", async () => {
    const dir = tempDir();
    const ok = io(dir);
    expect(
      await bridle(
        ["run", "--engine", "safe", "--grant", grantJson(dir), "--json", "--", "echo safe-ran"],
        ok.io,
      ),
    ).toBe(0);
    expect(JSON.parse(ok.stdout())).toMatchObject({ exit_code: 0, stdout: "safe-ran\n" });
    const refused = io(dir);
    expect(
      await bridle(
        [
          "run",
          "--engine",
          "safe",
          "--grant",
          grantJson(dir),
          "--json",
          "--",
          `echo $(touch ${join(dir, "m")})`,
        ],
        refused.io,
      ),
    ).toBe(1);
    expect(JSON.parse(refused.stdout())).toMatchObject({
      denied: true,
      denials: [{ code: "SHELL_DYNAMIC_CONSTRUCT" }],
    });
  });

  it("prints usage for a missing command or an unknown option", async () => {
    const none = io(tempDir());
    expect(await bridle([], none.io)).toBe(2);
    expect(none.stdout()).toContain("usage:");
    const unknown = io(tempDir());
    expect(await bridle(["read", "--frob"], unknown.io)).toBe(2);
    expect(unknown.stderr()).toContain("unknown option --frob");
    const help = io(tempDir());
    expect(await bridle(["help"], help.io)).toBe(0);
    expect(help.stdout()).toContain('"brush" (default where supported');
    expect(help.stdout()).toContain("--engine brush|safe|host");
  });
});

describe("bridle doctor", () => {
  it("reports the backend, the launcher and what each axis would report", async () => {
    const run = io(tempDir());
    expect(await bridle(["doctor"], run.io)).toBe(0);
    const text = run.stdout();
    expect(text).toContain(`host: ${process.platform}`);
    expect(text).toMatch(/backend: \w+/);
    expect(text).toMatch(/launcher: /);
    expect(text).toContain("sandbox-host:");
    expect(text).toContain("shell-brush:");
    expect(text).toMatch(/fs_read\s+(kernel|interceptor|advisory)/);
    expect(text).toMatch(/path checks: (in-process|thread-pool) lookups \(.+\)/);
    const json = io(tempDir());
    expect(await bridle(["doctor", "--json"], json.io)).toBe(0);
    const report = JSON.parse(json.stdout());
    expect(report.axes["sandbox-host"]).toHaveProperty("exec");
    expect(["in-process", "thread-pool"]).toContain(report.path_checks.mode);
    // The bash engine checks every spawn itself; files and network only the kernel bounds.
    expect(report.axes["shell-brush"].exec).toBe("interceptor");
    if (process.platform === "linux" || process.platform === "darwin") {
      expect(report.brush.supported).toBe(true);
    }
    if (report.launcher.found && report.launcher.probe) {
      // Every layer of the kernel boundary is listed with what the trial target found.
      for (const layer of ["namespaces", "private_view", "capabilities", "landlock", "seccomp"]) {
        expect(text).toMatch(new RegExp(`${layer}\\s+(ok|MISSING)`));
        expect(report.launcher.probe.layers).toHaveProperty(layer);
      }
      expect(report.axes["shell-brush"]).toMatchObject({
        fs_read: "kernel",
        fs_write: "kernel",
        net: "kernel",
      });
      expect(report.brush).toMatchObject({ available: true, sandbox_kind: "landlock" });
      expect(text).toMatch(/shell-brush: available, the default shell/);
      expect(text).toContain("seccomp:");
      expect(text).toContain("user namespaces:");
      expect(text).toContain("process cap (pids):");
      expect(report.axes["sandbox-host"].fs_read).toBe("kernel");
      // The host engine's exec is the kernel's execute rules, not an interceptor (ADR 0024).
      expect(report.axes["sandbox-host"].exec).toBe("interceptor");
      expect(report.exec_via).toEqual({ "sandbox-host": "execute_rules" });
      expect(text).toMatch(/exec\s+interceptor\s+the kernel's execute rules, no interceptor/);
    }
    expect(report.exec_via).not.toHaveProperty("shell-brush");
  });
});

describe("demoGrant", () => {
  it("reads and writes the directory, runs a short list of programs, and has no network", () => {
    const grant = demoGrant("/srv/project");
    const read = grant.fs_read as { only: string[] };
    expect([...read.only]).toEqual(["/srv/project"]);
    expect(grant.fs_write).toEqual({ only: ["/srv/project"] });
    expect(grant.net).toEqual({ only: [] });
    expect(grant.exec).not.toBe("all");
  });
});
