import { TRUSTED_PATH } from "@agent-bridle/core";
import { describe, expect, it } from "vitest";
import { buildChildEnvironment, droppedVariableNames } from "../../src/funnel/child-environment.js";
import {
  DENIED_VARIABLE_PREFIXES,
  DENIED_VARIABLES,
  FUNNEL_OWNED_VARIABLES,
} from "../../src/funnel/environment-denylist.js";
import { spawnConfined } from "../../src/funnel/spawn-confined.js";
import { recordingAudit } from "./helpers/funnel-context.js";

describe("the denylist (pinned)", () => {
  it("lists exactly these names", () => {
    expect([...DENIED_VARIABLES]).toEqual([
      "LD_PRELOAD",
      "LD_LIBRARY_PATH",
      "LD_AUDIT",
      "DYLD_INSERT_LIBRARIES",
      "DYLD_LIBRARY_PATH",
      "PYTHONPATH",
      "PYTHONSTARTUP",
      "NODE_OPTIONS",
      "RUBYOPT",
      "RUBYLIB",
      "PERL5OPT",
      "PERL5LIB",
      "CLASSPATH",
      "JAVA_TOOL_OPTIONS",
      "_JAVA_OPTIONS",
      "GIT_SSH_COMMAND",
      "GIT_EXEC_PATH",
      "GIT_TEMPLATE_DIR",
      "BASH_ENV",
      "ENV",
      "SHELLOPTS",
      "BASHOPTS",
      "PROMPT_COMMAND",
      "PAGER",
      "GIT_PAGER",
      "MANPAGER",
      "SYSTEMD_PAGER",
      "EDITOR",
      "VISUAL",
      "LESSOPEN",
      "LESSCLOSE",
      "LESSKEY",
      "BROWSER",
      "SSH_ASKPASS",
      "SSH_ASKPASS_REQUIRE",
      "SUDO_ASKPASS",
      "RIPGREP_CONFIG_PATH",
      "PS0",
      "PS1",
      "PS2",
      "PS4",
      "IFS",
      "CDPATH",
      "GLOBIGNORE",
      "ZDOTDIR",
      "INPUTRC",
      "NODE_PATH",
      "PYTHONHOME",
      "PYTHONINSPECT",
      "PERLLIB",
      "PERL5DB",
      "RUBYGEMS_GEMDEPS",
      "GLIBC_TUNABLES",
      "GCONV_PATH",
      "LOCPATH",
      "NLSPATH",
      "HOSTALIASES",
      "RESOLV_HOST_CONF",
      "MALLOC_TRACE",
      "XDG_CONFIG_HOME",
    ]);
    expect([...DENIED_VARIABLE_PREFIXES]).toEqual(["GIT_", "LD_", "DYLD_", "BASH_FUNC_"]);
    expect([...FUNNEL_OWNED_VARIABLES]).toEqual(["PATH", "LC_ALL", "HOME", "TMPDIR"]);
  });
});

describe("buildChildEnvironment", () => {
  const callerEnv = {
    GIT_CONFIG_GLOBAL: "/tmp/evil.gitconfig",
    GIT_CONFIG_COUNT: "1",
    LD_PRELOAD: "/tmp/evil.so",
    PAGER: "/tmp/evil-pager",
    "BASH_FUNC_ls%%": "() { /tmp/evil; }",
    PATH: "/tmp/evil-bin",
    HOME: "/root",
    TMPDIR: "/tmp/elsewhere",
    LC_ALL: "en_US.UTF-8",
    KEEP_ME: "yes",
  };

  it("starts from scratch: trusted PATH, LC_ALL=C, configured HOME/TMPDIR, allowed caller vars", () => {
    const env = buildChildEnvironment({ home: "/h", tmpdir: "/t", callerEnv });
    expect(env).toEqual({
      KEEP_ME: "yes",
      PATH: TRUSTED_PATH,
      LC_ALL: "C",
      HOME: "/h",
      TMPDIR: "/t",
    });
  });

  it("sets an engine's runtime variables after the caller's (a denylisted name only this way)", () => {
    const env = buildChildEnvironment({
      home: "/h",
      tmpdir: "/t",
      callerEnv: { ...callerEnv, GLIBC_TUNABLES: "glibc.malloc.check=3" },
      runtimeEnv: { GLIBC_TUNABLES: "glibc.malloc.hugetlb=1" },
    });
    expect(env.GLIBC_TUNABLES).toBe("glibc.malloc.hugetlb=1");
    expect(env.KEEP_ME).toBe("yes");
    expect(env.LD_PRELOAD).toBeUndefined();
  });

  it("names what it dropped, never the values", () => {
    expect(droppedVariableNames(callerEnv)).toEqual([
      "BASH_FUNC_ls%%",
      "GIT_CONFIG_COUNT",
      "GIT_CONFIG_GLOBAL",
      "HOME",
      "LC_ALL",
      "LD_PRELOAD",
      "PAGER",
      "PATH",
      "TMPDIR",
    ]);
  });

  it("is what a real child sees (/usr/bin/env), whatever the host has", async () => {
    const outcome = await spawnConfined({
      argv: ["env"],
      exec: "all",
      audit: recordingAudit(),
      toolName: "env-test",
      home: "/h",
      tmpdir: "/t",
      env: callerEnv,
      cwd: "/",
      timeoutMs: 5000,
      maxOutputBytes: 65536,
    });
    if (outcome.kind !== "ran") throw new Error(outcome.kind);
    const seen = Object.fromEntries(
      outcome.result.stdout
        .toString("utf8")
        .trim()
        .split("\n")
        .map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]),
    );
    expect(seen).toEqual({
      KEEP_ME: "yes",
      PATH: TRUSTED_PATH,
      LC_ALL: "C",
      HOME: "/h",
      TMPDIR: "/t",
    });
  });
});
