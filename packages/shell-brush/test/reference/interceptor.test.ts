import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  type Caveats,
  caveats,
  type Denial,
  defaultPathPolicy,
  Gate,
  only,
  top,
} from "@agent-bridle/core";
import { childProcessRunner, NOWHERE_HOME, useTempDirs } from "@agent-bridle-tools/test-kit";
import { describe, expect, it } from "vitest";
import { runBash } from "../../src/index.js";
import { createGatedAccess } from "../../src/worker/gated-access.js";

const tempDir = useTempDirs("brush-ref-interceptor-");

/** The worker's interceptor over a context minted for `partial`, recording its denials. */
function interceptor(partial: Partial<Caveats>) {
  const cx = new Gate({
    pathPolicy: defaultPathPolicy({ platform: "linux", home: NOWHERE_HOME }),
  }).authorize({ name: "shell", required: top() }, caveats({ ...top(), ...partial }));
  const denials: Denial[] = [];
  return { access: createGatedAccess(cx, (denial) => denials.push(denial)), denials };
}

describe("the interceptor (reference case 89, our worker's ShellAccess)", () => {
  it("89 (adapted: there is no context-free interceptor; the narrowest grant stands in): a deny-all grant denies exec and open", async () => {
    const dir = tempDir();
    const { access, denials } = interceptor({
      exec: only([]),
      fs_read: only([]),
      fs_write: only([]),
    });
    expect((await access.checkExec("echo", "/usr/bin/echo")).ok).toBe(false);
    expect((await access.open(join(dir, "x"))).ok).toBe(false);
    expect((await access.openWrite(join(dir, "x"))).ok).toBe(false);
    expect(denials.map((denial) => denial.kind)).toEqual(["exec", "open", "open"]);
  });

  it("89: under exec only[echo] rm is denied and recorded once; an allow records nothing; /bin/rm is denied under its own name", async () => {
    const { access, denials } = interceptor({ exec: only(["echo"]) });
    expect((await access.checkExec("rm", "/usr/bin/rm")).ok).toBe(false);
    expect(denials).toHaveLength(1);
    expect(denials[0]).toMatchObject({ kind: "exec" });
    expect(denials[0]?.target).toMatch(/(^|\/)rm$/);
    expect((await access.checkExec("echo", "/usr/bin/echo")).ok).toBe(true);
    expect(denials).toHaveLength(1);
    expect((await access.checkExec("/bin/rm", "/bin/rm")).ok).toBe(false);
    expect(denials[1]).toMatchObject({ kind: "exec", target: "/bin/rm" });
  });

  it("89: under fs_write only[<dir>] writes to /dev/null, /dev/stdout, /dev/stderr work; /dev/sda and /etc/passwd are denied and untouched", async () => {
    const dir = tempDir();
    const { access, denials } = interceptor({ fs_write: only([dir]) });
    const passwd = readFileSync("/etc/passwd");
    const result = await runBash(
      "echo out > /dev/stdout; echo err > /dev/stderr; echo gone > /dev/null; echo x > /dev/sda; echo $?; echo x >> /etc/passwd; echo $?",
      { cwd: dir, env: {}, scriptName: "bash", runner: childProcessRunner, access },
    );
    expect(result.stdout.toString()).toBe("out\n1\n1\n");
    expect(result.stderr.toString()).toContain("err\n");
    expect(denials.map((denial) => [denial.kind, denial.target])).toEqual([
      ["open", "/dev/sda"],
      ["open", "/etc/passwd"],
    ]);
    expect(readFileSync("/etc/passwd")).toEqual(passwd);
    const handle = await access.openWrite("/dev/null");
    expect(handle.ok).toBe(true);
    if (handle.ok) await handle.value.close();
  });

  it("89: descriptor-namespace paths are denied (5 records, also under top()); /proc/self/status meets the ordinary read check (adapted: the path policy blocks /proc)", async () => {
    const { access, denials } = interceptor({});
    for (const path of [
      "/dev/fd/0",
      "/dev/ignored/../fd/9",
      "/proc/self/fd/3",
      "/proc/thread-self/fd/4",
      "/proc/1234/fd/5",
    ]) {
      const opened = await access.open(path);
      expect(opened.ok, path).toBe(false);
    }
    expect(denials).toHaveLength(5);
    for (const denial of denials) {
      expect(denial.reason).toContain(
        "raw process descriptor paths are reserved for private control",
      );
    }
    // The ordinary read check: here the path policy's blocked /proc (seed rules), a
    // denial of its own kind, not the descriptor-namespace refusal.
    const status = await access.open("/proc/self/status");
    expect(status.ok).toBe(false);
    expect(denials).toHaveLength(6);
    expect(denials[5]).toMatchObject({ kind: "open", code: "FS_BLOCKED" });
    expect(denials[5]?.reason).toContain("blocked location (/proc)");
    expect(denials[5]?.reason).not.toContain("private control");
  });

  it("89 (adapted: the interceptor keeps no memo, so nothing can outlive a call): a denial is recorded every time", async () => {
    const { access, denials } = interceptor({ exec: only(["echo"]) });
    for (let round = 0; round < 3; round += 1) {
      expect((await access.checkExec("rm", "/usr/bin/rm")).ok).toBe(false);
      expect((await access.open("/dev/fd/3")).ok).toBe(false);
    }
    expect(denials).toHaveLength(6);
  });
});
