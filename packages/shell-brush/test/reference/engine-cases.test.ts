import { existsSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { only } from "@agent-bridle/core";
import { useTempDirs } from "@agent-bridle-tools/test-kit";
import { describe, expect, it } from "vitest";
import { brush, recordingObserver, settle } from "./helpers.js";

const tempDir = useTempDirs("brush-ref-engine-");

describe("the bash engine end to end (reference cases 79–85)", () => {
  it("79: printf to both streams: observer and envelope agree", async () => {
    const seen = recordingObserver();
    const { run } = brush({ observer: seen.observer });
    const envelope = await run({ cmd: "printf brush-out; printf brush-err >&2", cwd: tempDir() });
    await settle();
    expect(envelope).toMatchObject({ stdout: "brush-out", stderr: "brush-err", exit_code: 0 });
    expect(seen.text("stdout")).toBe(envelope.stdout);
    expect(seen.text("stderr")).toBe(envelope.stderr);
  });

  it("79: a line printed before a gated wait is observed before the invocation finishes", async () => {
    const dir = tempDir();
    const gate = join(dir, "go");
    const seen = recordingObserver();
    const { run } = brush({ observer: seen.observer });
    let completed = false;
    const call = run({
      cmd: `echo before-wait >&2; until [ -e ${gate} ]; do sleep 0.05; done; echo after`,
      cwd: dir,
    }).finally(() => {
      completed = true;
    });
    await seen.waitFor("stderr", "before-wait\n");
    expect(completed).toBe(false);
    writeFileSync(gate, "");
    expect((await call).stdout).toBe("after\n");
  });

  it("79 (adapted per spec §13: caps as configured, flags not markers): a cap+4 stderr flood from a real program is observed and returned as exactly the cap", async () => {
    const cap = 64 * 1024;
    const seen = recordingObserver();
    const { run } = brush({ observer: seen.observer, maxOutputBytes: cap });
    const envelope = await run({
      cmd: `/usr/bin/head -c ${cap + 4} /dev/zero | /usr/bin/tr '\\0' x >&2`,
      cwd: tempDir(),
    });
    await settle();
    expect(envelope.stderr).toBe("x".repeat(cap));
    expect(envelope.stderr_truncated).toBe(true);
    expect(envelope.stdout_truncated).toBe(false);
    expect(seen.text("stderr")).toBe(envelope.stderr);
  });

  it("79 (adapted): the default cap is 1 MiB per stream", async () => {
    const cap = 1 << 20;
    const seen = recordingObserver();
    const { run } = brush({ observer: seen.observer });
    const envelope = await run({
      cmd: `/usr/bin/head -c ${cap + 4} /dev/zero | /usr/bin/tr '\\0' y >&2`,
      cwd: tempDir(),
    });
    await settle();
    expect(envelope.stderr.length).toBe(cap);
    expect(envelope.stderr_truncated).toBe(true);
    expect(seen.text("stderr").length).toBe(cap);
  });

  it("80: command substitution under top() composes; the engine discloses itself as brush", async () => {
    const { run } = brush();
    const envelope = await run({ cmd: 'echo "$(echo composed)"', cwd: tempDir() });
    expect(envelope.stdout).toBe("composed\n");
    expect(envelope.disclosure?.engine).toBe("brush");
  });

  it("81: PS4='$(touch <s>)'; set -x; echo ok never runs the substitution: PS4 is a readonly literal", async () => {
    const dir = tempDir();
    const sentinel = join(dir, "ps4-ran");
    const { run } = brush();
    const envelope = await run({
      cmd: `PS4='$(/usr/bin/touch ${sentinel})'; set -x; echo ok`,
      cwd: dir,
      env: { PS4: `$(/usr/bin/touch ${sentinel})` },
    });
    expect(existsSync(sentinel)).toBe(false);
    expect(readdirSync(dir)).toEqual([]);
    expect(envelope.stderr).toContain("PS4: readonly variable");
    // Whatever is traced uses the pinned prompt, never the script's or the request's.
    expect(envelope.stderr).not.toContain("touch");
  });

  // As in bash 5.2, an assignment to a readonly variable abandons the rest of its input line
  // with status 1, so a one-line script ends (`bash -c 'readonly X=1; X=2; echo st=$?'`
  // prints nothing on stdout, status 1).
  it("81 (bash parity): the refused PS4 assignment ends the script with status 1, as in bash", async () => {
    const dir = tempDir();
    const { run } = brush();
    const envelope = await run({
      cmd: `PS4='$(/usr/bin/touch ${join(dir, "s")})'; set -x; echo ok`,
      cwd: dir,
    });
    expect(envelope).toMatchObject({ exit_code: 1, stdout: "" });
  });

  it("81: a function's local PS4 never runs its substitution either", async () => {
    const dir = tempDir();
    const sentinel = join(dir, "ps4-ran");
    const { run } = brush();
    await run({
      cmd: `f() { local PS4='$(/usr/bin/touch ${sentinel})'; set -x; echo in; }; f`,
      cwd: dir,
    });
    expect(existsSync(sentinel)).toBe(false);
    expect(readdirSync(dir)).toEqual([]);
  });

  // As in bash, `local` cannot shadow the readonly PS4 (`local: PS4: readonly variable`,
  // status 1) and `declare +r` cannot lift it (`declare: PS4: readonly variable`).
  it("81 (bash parity): local and declare +r cannot touch the readonly PS4", async () => {
    const { run } = brush();
    const envelope = await run({
      cmd: 'f() { local PS4="L> "; echo "local=$?"; set -x; echo in; set +x; }; f; declare +r PS4; echo "declare=$?"',
      cwd: tempDir(),
    });
    expect(envelope.stdout).toBe("local=1\nin\ndeclare=1\n");
    expect(envelope.stderr).toContain("local: PS4: readonly variable");
    expect(envelope.stderr).not.toContain("L> ");
  });

  it("82: exec only[echo]: /bin/touch is denied (kind exec), echo runs, a substituted touch is denied too; nothing is created", async () => {
    const dir = tempDir();
    const sentinel = join(dir, "touched");
    const { run } = brush();
    const grant = { exec: only(["echo"]) };
    const direct = await run({ cmd: `/bin/touch ${sentinel}`, cwd: dir }, grant);
    expect(direct).toMatchObject({ denied: true, exit_code: 126 });
    expect(direct.denials?.[0]).toMatchObject({ kind: "exec", target: "/bin/touch" });
    expect(direct.stderr).toContain("/bin/touch: execution denied:");
    expect(existsSync(sentinel)).toBe(false);

    const echo = await run({ cmd: "echo ok", cwd: dir }, grant);
    expect(echo).toMatchObject({ stdout: "ok\n", exit_code: 0 });
    expect(echo.denied).toBeUndefined();

    const nested = await run({ cmd: `echo "$(/bin/touch ${sentinel})"`, cwd: dir }, grant);
    expect(nested.denied).toBe(true);
    expect(nested.denials?.[0]?.kind).toBe("exec");
    expect(nested.denials?.[0]?.target).toMatch(/touch$/);
    expect(existsSync(sentinel)).toBe(false);
    expect(readdirSync(dir)).toEqual([]);
  });

  it("83 (adapted per spec §13: in-band, not thrown): fs_write only[<m>] with no kernel backend is refused before anything runs", async () => {
    const dir = tempDir();
    const target = join(dir, "m");
    const { dispatch } = brush();
    const result = (await dispatch(
      { cmd: `echo escaped > ${target}`, cwd: dir },
      { fs_write: only([target]) },
    )) as Record<string, unknown>;
    expect(result).toMatchObject({ denied: true });
    expect(result.exit_code).toBeUndefined();
    expect(existsSync(target)).toBe(false);
    expect(readdirSync(dir)).toEqual([]);
  });

  it("84: the request env reaches the script (HOME included); nothing ambient leaks", async () => {
    const { run } = brush();
    const probe = await run({
      cmd: 'echo "$NEWT_SEAM_PROBE"',
      env: { NEWT_SEAM_PROBE: "delivered" },
      cwd: tempDir(),
    });
    expect(probe.stdout).toBe("delivered\n");
    const home = await run({ cmd: 'echo "$HOME"', env: { HOME: "/seam/home" }, cwd: tempDir() });
    expect(home.stdout).toBe("/seam/home\n");

    process.env.AGENT_BRIDLE_AMBIENT_PROBE = "leaked";
    try {
      const ambient = await run({
        cmd: 'echo "[$AGENT_BRIDLE_AMBIENT_PROBE]"; /usr/bin/env | /bin/grep -c AMBIENT_PROBE',
        cwd: tempDir(),
      });
      expect(ambient.stdout).toBe("[]\n0\n");
    } finally {
      delete process.env.AGENT_BRIDLE_AMBIENT_PROBE;
    }
  });

  it("84: with a warm worker, nothing of one call's env or exports reaches the next call", async () => {
    const { run, tool } = brush({ warm: true });
    const first = await run({
      cmd: 'export LEAKED=exported; echo "$NEWT_SEAM_PROBE"',
      env: { NEWT_SEAM_PROBE: "delivered" },
      cwd: tempDir(),
    });
    expect(first.stdout).toBe("delivered\n");
    await tool.warmReady();
    const second = await run({ cmd: 'echo "[$NEWT_SEAM_PROBE][$LEAKED]"', cwd: tempDir() });
    expect(second.stdout).toBe("[][]\n");
  });

  it("85: /bin/cat with no input returns promptly with nothing (stdin is /dev/null); so does the carried cat", async () => {
    const { run } = brush();
    const started = performance.now();
    const external = await run({ cmd: "/bin/cat", cwd: tempDir(), timeout_secs: 20 });
    expect(external).toMatchObject({ exit_code: 0, stdout: "", timed_out: false });
    const carried = await run({ cmd: "cat; head -c 10", cwd: tempDir(), timeout_secs: 20 });
    expect(carried).toMatchObject({ exit_code: 0, stdout: "", timed_out: false });
    // Liveness bound only: far below the 20 s timeouts.
    expect(performance.now() - started).toBeLessThan(15_000);
  });
});
