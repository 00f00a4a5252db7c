// biome-ignore-all lint/suspicious/noTemplateCurlyInString: shell source, where ${NAME} is literal input.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { InvalidArgumentsError, only } from "@agent-bridle/core";
import { describe, expect, it } from "vitest";
import { createShellTool } from "../../src/index.js";
import { asDenied, asRun, HOME, registryWith, safeShell, useTempDirs } from "./helpers.js";

const tempDir = useTempDirs();

describe("shell-safe engine: admission (reference cases 32–50, as spec §13 adapts them)", () => {
  it("32/59: false && echo hi runs only false; status semantics left to right", async () => {
    const { dispatch } = safeShell(tempDir());
    const grant = { exec: only(["false", "echo", "true"]) };
    expect(asRun(await dispatch({ cmd: "false && echo hi" }, grant))).toMatchObject({
      exit_code: 1,
      stdout: "",
    });
    expect(asRun(await dispatch({ cmd: "true && echo ran" }, grant)).stdout).toBe("ran\n");
    expect(asRun(await dispatch({ cmd: "false || echo fallback" }, grant)).stdout).toBe(
      "fallback\n",
    );
    expect(asRun(await dispatch({ cmd: "echo a ; echo b\necho c" }, grant)).stdout).toBe(
      "a\nb\nc\n",
    );
    expect(asRun(await dispatch({ cmd: "false && echo x || echo y" }, grant)).stdout).toBe("y\n");
  });

  it("33/A38: echo ok ; rm -rf x under exec only[echo] is refused whole, nothing runs", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "victim"), "v");
    const { dispatch } = safeShell(dir);
    const denied = asDenied(
      await dispatch({ cmd: "echo ok > made ; rm -rf victim" }, { exec: only(["echo"]) }),
    );
    expect(denied.denials[0]).toMatchObject({
      kind: "exec",
      target: "rm",
      code: "EXEC_NOT_GRANTED",
    });
    expect(existsSync(join(dir, "victim"))).toBe(true);
    expect(existsSync(join(dir, "made"))).toBe(false);
    // argv-form control: the tokens are literal arguments
    const control = asRun(
      await dispatch(
        { program: "echo", args: ["ok", ";", "rm", "-rf", "victim"] },
        { exec: only(["echo"]) },
      ),
    );
    expect(control.stdout).toBe("ok ; rm -rf victim\n");
    expect(existsSync(join(dir, "victim"))).toBe(true);
  });

  it("34/46/60: globs are bash's: sorted, hidden excluded, no match is literal, ** is *", async () => {
    const dir = tempDir();
    for (const name of ["a.rs", "b.rs", "c.txt", ".hidden.rs"])
      writeFileSync(join(dir, name), name[0] ?? "");
    mkdirSync(join(dir, "a"));
    mkdirSync(join(dir, "a/sub"));
    mkdirSync(join(dir, "b"));
    writeFileSync(join(dir, "a/foo.rs"), "");
    writeFileSync(join(dir, "a/sub/deep.rs"), "");
    writeFileSync(join(dir, "b/bar.rs"), "");
    const { dispatch } = safeShell(dir);
    const run = async (cmd: string) => asRun(await dispatch({ cmd })).stdout;
    expect(await run("echo *.rs")).toBe("a.rs b.rs\n");
    expect(await run("cat *.rs")).toBe("ab\n".slice(0, 2));
    expect(await run("echo .*.rs [!a].rs [a-b].r? zzz* '*'.rs")).toBe(
      ".hidden.rs b.rs a.rs b.rs zzz* *.rs\n",
    );
    expect(await run("echo */foo.rs **/*.rs */")).toBe("a/foo.rs a/foo.rs b/bar.rs a/ b/\n");
    const missing = asRun(await dispatch({ cmd: "cat zzz*" }));
    expect(missing.exit_code).not.toBe(0);
  });

  it("46: a glob over the match cap refuses the script (no silent cut)", async () => {
    const dir = tempDir();
    for (const name of ["a", "b", "c"]) writeFileSync(join(dir, name), "");
    const { dispatch } = registryWith(
      createShellTool({ home: HOME, tmpdir: "/tmp", baseDir: dir, limits: { maxGlobMatches: 2 } }),
    );
    const denied = asDenied(await dispatch({ cmd: "echo *" }));
    expect(denied.denials[0]).toMatchObject({ code: "SHELL_LIMIT_EXCEEDED", target: "*" });
  });

  it("35: a glob or a variable as the program is refused; nothing runs", async () => {
    const { dispatch } = safeShell(tempDir());
    expect(asDenied(await dispatch({ cmd: "*.sh foo" })).denials[0]).toMatchObject({
      kind: "exec",
    });
    expect(asDenied(await dispatch({ cmd: "$HOME foo" })).denials[0]).toMatchObject({
      kind: "exec",
    });
  });

  it("36: echo * with fs_read only[<other>] is refused with kind open", async () => {
    const { dispatch } = safeShell(tempDir());
    const other = tempDir();
    const denied = asDenied(await dispatch({ cmd: "echo *" }, { fs_read: only([other]) }));
    expect(denied.denials[0]).toMatchObject({ kind: "open" });
  });

  it("37/61: $VAR expands at admission from the child's environment; unlisted names are refused", async () => {
    const dir = tempDir();
    const { dispatch } = safeShell(dir);
    expect(
      asRun(await dispatch({ cmd: 'echo $HOME ${HOME}/sub "prefix-$HOME" ~ ~/x $PWD' })).stdout,
    ).toBe(`${HOME} ${HOME}/sub prefix-${HOME} ${HOME} ${HOME}/x ${dir}\n`);
    expect(asRun(await dispatch({ cmd: "echo $HOME", env: { HOME: "/req-home" } })).stdout).toBe(
      `${HOME}\n`,
    );
    expect(asRun(await dispatch({ cmd: "echo $LANG", env: { LANG: "xx" } })).stdout).toBe("xx\n");
    const denied = asDenied(await dispatch({ cmd: "echo $AWS_SECRET_KEY" }));
    expect(denied.denials[0]).toMatchObject({ kind: "exec", target: "$AWS_SECRET_KEY" });
    expect(asRun(await dispatch({ cmd: "echo a $LANG b" })).stdout).toBe("a b\n");
  });

  it("38/62: cmd 2> /etc/passwd under fs_write only[<tmp>] is refused (kind open); 2>&1 merges", async () => {
    const dir = tempDir();
    const { dispatch } = safeShell(dir);
    const denied = asDenied(
      await dispatch({ cmd: "echo x 2> /etc/passwd" }, { fs_write: only([dir]) }),
    );
    expect(denied.denials[0]).toMatchObject({ kind: "open" });
    const merged = asRun(await dispatch({ cmd: "cat missing-file 2>&1" }));
    expect(merged.stdout).toContain("missing-file");
    expect(merged.stderr).toBe("");
    const piped = asRun(await dispatch({ cmd: "cat missing-file 2>&1 | cat" }));
    expect(piped.stdout).toContain("missing-file");
    const toFile = asRun(await dispatch({ cmd: "cat missing-file 2> err" }));
    expect(toFile.stderr).toBe("");
    expect(readFileSync(join(dir, "err"), "utf8")).toContain("missing-file");
    const order = asRun(await dispatch({ cmd: "cat missing-file 2>&1 > out" }));
    expect(order.stdout).toContain("missing-file");
    expect(readFileSync(join(dir, "out"), "utf8")).toBe("");
  });

  it("39: program and cmd together (or neither) is a thrown INVALID_ARGUMENTS", async () => {
    const { dispatch } = safeShell(tempDir());
    await expect(dispatch({ program: "echo", cmd: "echo hi" })).rejects.toBeInstanceOf(
      InvalidArgumentsError,
    );
    await expect(dispatch({})).rejects.toBeInstanceOf(InvalidArgumentsError);
    await expect(dispatch({ cmd: "echo", args: ["x"] })).rejects.toBeInstanceOf(
      InvalidArgumentsError,
    );
  });

  it("42: timeout_secs over the maximum is rejected naming the maximum, not clamped", async () => {
    const { dispatch, registry } = registryWith(
      createShellTool({
        home: HOME,
        tmpdir: "/tmp",
        baseDir: tempDir(),
        limits: { maxTimeoutSecs: 5 },
      }),
    );
    await expect(dispatch({ cmd: "echo hi", timeout_secs: 9999 })).rejects.toThrow(/at most 5/);
    await expect(dispatch({ cmd: "echo hi", timeout_secs: 0 })).rejects.toBeInstanceOf(
      InvalidArgumentsError,
    );
    const [definition] = registry.toolDefinitions();
    expect(JSON.stringify(definition?.inputSchema)).toContain('"maximum":5');
  });

  it("43: redirect targets with $VAR are literal paths, judged", async () => {
    const dir = tempDir();
    const { dispatch } = registryWith(createShellTool({ home: HOME, tmpdir: dir, baseDir: dir }));
    expect(asRun(await dispatch({ cmd: "echo hi > $TMPDIR/out" })).exit_code).toBe(0);
    expect(readFileSync(join(dir, "out"), "utf8")).toBe("hi\n");
    expect(asDenied(await dispatch({ cmd: "echo hi > $SECRET" })).denials[0]?.reason).toContain(
      "SECRET",
    );
    expect(
      asDenied(
        await dispatch(
          { cmd: "echo hi > $TMPDIR/out2" },
          { fs_write: only(["/nonexistent-grant-root"]) },
        ),
      ).denials[0],
    ).toMatchObject({ kind: "open" });
  });

  it("44: a $VAR value bash would split or glob, used unquoted, is refused; quoted it is literal", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "a.rs"), "");
    const { dispatch } = safeShell(dir);
    for (const value of ["/a*b", "a b", "x?", "[x]"]) {
      const denied = asDenied(await dispatch({ cmd: "echo $LANG", env: { LANG: value } }));
      expect(denied.denials[0]).toMatchObject({
        target: "$LANG",
        code: "SHELL_UNSUPPORTED_CONSTRUCT",
      });
    }
    expect(asRun(await dispatch({ cmd: 'echo "$LANG"', env: { LANG: "a  *" } })).stdout).toBe(
      "a  *\n",
    );
    expect(asRun(await dispatch({ cmd: 'echo "$LANG"/*.rs', env: { LANG: dir } })).stdout).toBe(
      `${dir}/a.rs\n`,
    );
    expect(asDenied(await dispatch({ cmd: "ls $SECRET/*.rs" })).denials[0]?.target).toBe("$SECRET");
  });

  it("50: a dynamic construct carries the inspector's shell_inspection; others do not", async () => {
    const seen: string[] = [];
    const inspector = (source: string) => {
      seen.push(source);
      return { version: 1, source, constructs: [{ kind: "command_substitution" }] };
    };
    const dir = tempDir();
    const { dispatch } = registryWith(
      createShellTool({ home: HOME, tmpdir: "/tmp", baseDir: dir, inspector }),
    );
    const cmd =
      'ls -1 $(find . -name "*.rs" -type f -exec wc -l {} + 2>/dev/null | sort -nr | head -10)';
    const denied = asDenied(await dispatch({ cmd }));
    expect(denied.denials[0]?.target).toBe("command substitution `$(`");
    expect(denied.shell_inspection).toMatchObject({
      source: cmd,
      constructs: [{ kind: "command_substitution" }],
    });
    const malformed = asDenied(await dispatch({ cmd: "echo hi &&" }));
    expect(malformed.shell_inspection).toBeUndefined();
    expect(seen).toEqual([cmd]);
  });
});

describe("shell-safe engine: real processes (cases 51–62)", () => {
  it("51: {program: echo, args: [hello]} with top()", async () => {
    const { dispatch } = safeShell(tempDir());
    const envelope = asRun(await dispatch({ program: "echo", args: ["hello", "*", "$HOME"] }));
    expect(envelope).toMatchObject({ exit_code: 0, stdout: "hello * $HOME\n" });
    expect(envelope.denied).toBeUndefined();
  });

  it("52 [no-L3]: net only[] is refused in-band by the floor; exec only[touch] runs", async () => {
    const dir = tempDir();
    const { dispatch } = safeShell(dir);
    const marker = join(dir, "marker");
    const denied = await dispatch({ cmd: `touch ${marker}` }, { net: only([]) });
    expect(asDenied(denied).denials[0]).toMatchObject({
      kind: "net",
      code: "ENFORCEMENT_BELOW_FLOOR",
    });
    expect(existsSync(marker)).toBe(false);
    const ran = asRun(await dispatch({ cmd: `touch ${marker}` }, { exec: only(["touch"]) }));
    expect(ran.exit_code).toBe(0);
    expect(ran.enforcement).toMatchObject({ exec: "interceptor" });
    expect(existsSync(marker)).toBe(true);
  });

  it("53: timeout kills every stage's tree; later items do not run", async () => {
    const dir = tempDir();
    const { dispatch } = safeShell(dir);
    const cmd = `sh -c "touch START; sh -c 'sleep 1; touch DONE'" ; touch AFTER`;
    const envelope = asRun(await dispatch({ cmd, timeout_secs: 0.4 }));
    expect(envelope.timed_out).toBe(true);
    expect(envelope.stderr).toContain("timed out");
    expect(existsSync(join(dir, "START"))).toBe(true);
    expect(existsSync(join(dir, "AFTER"))).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(existsSync(join(dir, "DONE"))).toBe(false);
  });

  it("54: the child env lacks denylisted variables and the host's own", async () => {
    const { dispatch } = safeShell(tempDir());
    const env = {
      LD_PRELOAD: "x",
      PYTHONPATH: "x",
      GIT_SSH_COMMAND: "x",
      BASH_ENV: "x",
      NODE_OPTIONS: "x",
      SAFE_VAR: "keep",
    };
    const out = asRun(await dispatch({ cmd: "env", env })).stdout;
    for (const name of [
      "LD_PRELOAD",
      "PYTHONPATH",
      "GIT_SSH_COMMAND",
      "BASH_ENV",
      "NODE_OPTIONS",
      "VITEST",
    ])
      expect(out).not.toContain(`${name}=`);
    expect(out).toContain("SAFE_VAR=keep");
  });

  it("56: output cap with flags", async () => {
    const { dispatch } = registryWith(
      createShellTool({
        home: HOME,
        tmpdir: "/tmp",
        baseDir: tempDir(),
        limits: { maxOutputBytes: 8 },
      }),
    );
    const envelope = asRun(await dispatch({ cmd: `echo ${"a".repeat(30)}` }));
    expect(envelope).toMatchObject({
      stdout: "aaaaaaaa",
      stdout_truncated: true,
      stderr_truncated: false,
    });
  });

  it("57: pipes, no pipefail, a failing program, an ungranted program; 127 for not found", async () => {
    const { dispatch } = safeShell(tempDir());
    expect(asRun(await dispatch({ cmd: "echo hello | cat" })).stdout).toBe("hello\n");
    expect(asRun(await dispatch({ cmd: "true | false" })).exit_code).toBe(1);
    expect(asRun(await dispatch({ cmd: "false | true" })).exit_code).toBe(0);
    const failing = asRun(await dispatch({ cmd: "cat /nonexistent/x" }));
    expect(failing.exit_code).not.toBe(0);
    expect(failing.stderr).not.toBe("");
    const denied = asDenied(await dispatch({ program: "rm" }, { exec: only(["echo"]) }));
    expect(denied.denials[0]?.target).toBe("rm");
    expect("exit_code" in denied).toBe(false);
    const missing = asRun(await dispatch({ cmd: "no-such-program-xyz; echo after" }));
    expect(missing).toMatchObject({ exit_code: 0, stdout: "after\n" });
    expect(missing.stderr).toContain("no-such-program-xyz: command not found");
    expect(asRun(await dispatch({ cmd: "no-such-program-xyz" })).exit_code).toBe(127);
    expect(asRun(await dispatch({ cmd: "echo a | no-such-program-xyz" })).exit_code).toBe(127);
  });

  it("58: > >> < and a pipeline into a file, opened relative to the request cwd", async () => {
    const dir = tempDir();
    const { dispatch } = safeShell(tempDir());
    await dispatch({ cmd: "echo first > f", cwd: dir });
    await dispatch({ cmd: "echo second >> f", cwd: dir });
    expect(readFileSync(join(dir, "f"), "utf8")).toBe("first\nsecond\n");
    expect(asRun(await dispatch({ cmd: "cat < f", cwd: dir })).stdout).toBe("first\nsecond\n");
    expect(asRun(await dispatch({ cmd: "echo piped | cat > g", cwd: dir })).stdout).toBe("");
    expect(readFileSync(join(dir, "g"), "utf8")).toBe("piped\n");
    expect(asRun(await dispatch({ cmd: "echo x | cat < f | wc -l", cwd: dir })).stdout.trim()).toBe(
      "2",
    );
    expect(asRun(await dispatch({ cmd: "echo made > h; cat h *", cwd: dir })).stdout).toBe(
      "made\nfirst\nsecond\npiped\nmade\n",
    );
    const missing = asRun(await dispatch({ cmd: "cat < nope; echo next", cwd: dir }));
    expect(missing.stdout).toBe("next\n");
    expect(missing.stderr).toContain("nope: No such file or directory");
    expect(
      asRun(await dispatch({ cmd: "echo gone > /dev/null 2>/dev/null", cwd: dir })).stdout,
    ).toBe("");
  });

  it("cwd outside fs_read is refused; no cwd and no baseDir is refused", async () => {
    const dir = tempDir();
    const { dispatch } = safeShell(dir);
    expect(
      asDenied(await dispatch({ cmd: "echo hi", cwd: "/" }, { fs_read: only([dir]) })).denials[0],
    ).toMatchObject({ kind: "open" });
    const { dispatch: bare } = registryWith(createShellTool({ home: HOME, tmpdir: "/tmp" }));
    expect(asDenied(await bare({ cmd: "echo hi" })).denials[0]?.code).toBe("FS_NO_BASE_DIR");
  });
});
