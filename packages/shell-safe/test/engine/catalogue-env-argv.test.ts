import { execFileSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ConfigurationError } from "@agent-bridle/core";
import { NONE_BACKEND } from "@agent-bridle/sandbox";
import { afterEach, describe, expect, it } from "vitest";
import { createShellTool } from "../../src/index.js";
import { catalogueFixture, noCanary, processesWith } from "./catalogue-fixture.js";
import { asDenied, asRun, HOME, useTempDirs } from "./helpers.js";

// Attack catalogue entries for the safe engine that need no kernel backend (judged per
// spec §12): argv round trips (A82), the environment (A74's variable, A84, A86, A88),
// denial of service (A94) and persistence programs (A100). Linux /proc is used by A94.
const tempDir = useTempDirs();
const fixture = () => catalogueFixture(tempDir());
const saved = new Map<string, string | undefined>();
function setHostEnv(values: Record<string, string>) {
  for (const [name, value] of Object.entries(values)) {
    if (!saved.has(name)) saved.set(name, process.env[name]);
    process.env[name] = value;
  }
}
afterEach(() => {
  for (const [name, value] of saved) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  saved.clear();
});

/** A small deterministic generator (mulberry32), so every run checks the same arguments. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const PIECES = [
  "`",
  "$(",
  ")",
  "\\",
  "'",
  '"',
  "\n",
  "\r",
  "!",
  "~",
  "-",
  "C:`",
  "a",
  " ",
  "*",
  "#",
  ";",
  "|",
  "&",
  "$HOME",
  "{a,b}",
  "é",
];
function randomArgument(next: () => number): string {
  const length = 1 + Math.floor(next() * 6);
  let text = "";
  for (let index = 0; index < length; index += 1)
    text += PIECES[Math.floor(next() * PIECES.length)];
  return text;
}
/** Single-quote one argument for a POSIX shell (the only string form the test builds). */
const quote = (argument: string) => `'${argument.replaceAll("'", `'\\''`)}'`;
const nulSplit = (text: string) => text.split("\0").slice(0, -1);

describe("attack catalogue: argv and environment (no kernel backend needed)", () => {
  it("A82: random arguments survive the argv form and the quoted cmd form exactly, as bash reads them; NUL is refused", async () => {
    const { A, P, dispatch } = fixture();
    const next = random(82);
    for (let round = 0; round < 40; round += 1) {
      const args = Array.from({ length: 1 + Math.floor(next() * 4) }, () => randomArgument(next));
      const argv = asRun(await dispatch({ program: "printf", args: ["%s\\0", ...args] }));
      expect(nulSplit(argv.stdout), JSON.stringify(args)).toEqual(args);
      const cmd = `printf '%s\\0' ${args.map(quote).join(" ")}`;
      const script = await dispatch({ cmd });
      if (cmd.includes("\r")) {
        // A CR is read differently by bash and a human reader (A52): refused, never split.
        expect(asDenied(script).denials[0]?.code).toBe("SHELL_PARSE_ERROR");
        continue;
      }
      expect(nulSplit(asRun(script).stdout), cmd).toEqual(args);
      const bash = execFileSync("/bin/bash", ["--norc", "--noprofile", "-c", cmd], {
        cwd: A,
        stdio: ["ignore", "pipe", "pipe"],
      }).toString("utf8");
      expect(asRun(script).stdout, `${cmd} (bash)`).toBe(bash);
    }
    // NUL is refused up front, in-band, in both forms.
    for (const request of [{ program: "echo", args: ["a\0b"] }, { cmd: "echo 'a\0b'" }]) {
      const denied = asDenied(await dispatch(request));
      expect(denied.denials[0]?.code).toBe("SHELL_PARSE_ERROR");
    }
    expect(existsSync(P)).toBe(false);
  });

  it("A74: rg is not granted by default; RIPGREP_CONFIG_PATH never reaches a child (host, request or assignment)", async () => {
    const { A, P, dispatch, execGrant } = fixture();
    writeFileSync(join(A, "evil.sh"), `#!/bin/sh\ntouch ${P}\n`, { mode: 0o755 });
    writeFileSync(join(A, "rgrc"), "--pre=./evil.sh\n");
    for (const cmd of [
      "rg --pre=./evil.sh x .",
      "rg --pre ./evil.sh x .",
      "rg --hostname-bin=./evil.sh x",
    ]) {
      const denied = asDenied(await dispatch({ cmd }, execGrant()));
      expect(denied.denials[0]).toMatchObject({
        kind: "exec",
        target: "rg",
        code: "EXEC_NOT_GRANTED",
      });
    }
    // The assignment prefix is refused by the parser; the variable is stripped from the
    // host's and from the request's environment.
    asDenied(await dispatch({ cmd: `RIPGREP_CONFIG_PATH=${A}/rgrc rg x .` }, execGrant("rg")));
    setHostEnv({ RIPGREP_CONFIG_PATH: join(A, "rgrc") });
    const env = asRun(
      await dispatch(
        { program: "env", env: { RIPGREP_CONFIG_PATH: join(A, "rgrc") } },
        execGrant("env"),
      ),
    );
    expect(env.stdout).not.toContain("RIPGREP_CONFIG_PATH");
    // argv-form control: the option is one literal argument to a granted echo.
    const control = asRun(
      await dispatch({ program: "echo", args: ["--pre=./evil.sh"] }, execGrant()),
    );
    expect(control.stdout).toBe("--pre=./evil.sh\n");
    expect(existsSync(P)).toBe(false);
  });

  it("A84: the host's secrets never reach env, printenv or jq; export -p and set are refused", async () => {
    setHostEnv({ LEASH_TEST_SECRET: "CANARY-ENV", OPENAI_API_KEY: "CANARY-ENV" });
    const { dispatch, execGrant } = fixture();
    const grant = execGrant("env", "printenv", "jq");
    for (const cmd of ["env", "printenv", "jq -n env", "jq -n '$ENV'"]) {
      const envelope = asRun(await dispatch({ cmd }, grant));
      expect(envelope.exit_code, cmd).toBe(0);
      noCanary(envelope);
    }
    for (const cmd of ["export -p", "set"]) {
      const denied = asDenied(await dispatch({ cmd }, grant));
      expect(denied.denials[0]?.code, cmd).toMatch(/^SHELL_/);
      noCanary(denied);
    }
  });

  it("A86: helper-choosing variables are stripped from the host's and the request's environment", async () => {
    const { P, dispatch, execGrant } = fixture();
    const hostile = {
      GIT_CONFIG_COUNT: "1",
      GIT_CONFIG_KEY_0: "core.pager",
      GIT_CONFIG_VALUE_0: `touch ${P}`,
      GIT_PROXY_COMMAND: `touch ${P}`,
      GIT_EXTERNAL_DIFF: `touch ${P}`,
      GIT_DIR: "/",
      PAGER: `touch ${P}`,
      EDITOR: `touch ${P}`,
      NODE_OPTIONS: `--require ${P}`,
      PYTHONPATH: P,
    };
    setHostEnv(hostile);
    const envelope = asRun(await dispatch({ program: "env", env: hostile }, execGrant("env")));
    const names = envelope.stdout.split("\n").map((line) => line.split("=")[0]);
    for (const name of Object.keys(hostile)) expect(names, name).not.toContain(name);
    expect(existsSync(P)).toBe(false);
  });

  it("A88: an allowlist naming a secret-looking variable is a configuration error; by default $API_TOKEN is refused", async () => {
    for (const name of ["API_TOKEN", "AWS_SECRET_ACCESS_KEY", "DB_PASSWORD", "OPENAI_API_KEY"]) {
      expect(
        () =>
          createShellTool({
            home: HOME,
            tmpdir: "/tmp",
            backend: NONE_BACKEND,
            limits: { variableAllowlist: ["HOME", name] },
          }),
        name,
      ).toThrow(ConfigurationError);
    }
    setHostEnv({ API_TOKEN: "CANARY-ENV" });
    const { dispatch, execGrant } = fixture();
    const denied = asDenied(await dispatch({ cmd: "echo $API_TOKEN" }, execGrant()));
    expect(denied.denials[0]).toMatchObject({ target: "$API_TOKEN" });
    noCanary(denied);
    // argv-form control: the literal text, never expanded.
    const control = asRun(await dispatch({ program: "echo", args: ["$API_TOKEN"] }, execGrant()));
    expect(control.stdout).toBe("$API_TOKEN\n");
  });

  it("A94: sleep and tail -f are KILLED at the timeout with nothing left behind; cat reads EOF from stdin", async () => {
    const { dispatch, execGrant } = fixture();
    const grant = execGrant("sleep", "tail");
    for (const cmd of ["sleep 100094", "tail -f ok.txt", "sleep 100095 | tail -f ok.txt"]) {
      const envelope = asRun(await dispatch({ cmd, timeout_secs: 0.5 }, grant));
      expect(envelope, cmd).toMatchObject({ timed_out: true, exit_code: 124 });
    }
    expect(processesWith("100094")).toEqual([]);
    expect(processesWith("100095")).toEqual([]);
    const cat = asRun(await dispatch({ cmd: "cat", timeout_secs: 5 }, grant));
    expect(cat).toMatchObject({ exit_code: 0, stdout: "", timed_out: false });
  });

  it("A100: at, crontab and systemd-run are not granted: refused before anything runs", async () => {
    const { P, dispatch, execGrant } = fixture();
    for (const cmd of ["at now + 1 minute", "crontab -", `systemd-run --user touch ${P}`]) {
      const denied = asDenied(await dispatch({ cmd }, execGrant()));
      expect(denied.denials[0], cmd).toMatchObject({ kind: "exec", code: "EXEC_NOT_GRANTED" });
    }
    expect(existsSync(P)).toBe(false);
  });
});
