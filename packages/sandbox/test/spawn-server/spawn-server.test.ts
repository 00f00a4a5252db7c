// The host's spawn server (ADR 0023): what a served child gets, and that nothing it
// started outlives the host. Real processes, real descriptors.
import { spawn } from "node:child_process";
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openPrivateChannel, privateChannelChildEnd } from "../../src/channel/private-channel.js";
import { ServedChild } from "../../src/spawn-server/served-child.js";
import { launcherPath } from "../launcher/harness.js";
import { runServed, startServed, suiteServer } from "./served.js";

const scratch = mkdtempSync(join(tmpdir(), "spawn-server-test-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function alive(pid: number): boolean {
  try {
    return !readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.startsWith("Z");
  } catch {
    return false;
  }
}

async function gone(pid: number, withinMs: number): Promise<boolean> {
  const until = Date.now() + withinMs;
  while (Date.now() < until) {
    if (!alive(pid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return !alive(pid);
}

describe("spawn server", () => {
  it("runs the argv it is given with exactly its cwd and environment, and reports the exit code", async () => {
    const run = await runServed({
      argv: ["/bin/sh", "-c", "pwd; env | sort; echo oops >&2; exit 3"],
      cwd: scratch,
      env: { PATH: "/usr/bin:/bin", ONLY: "this" },
    });
    expect(run.code).toBe(3);
    expect(run.stdout).toBe(`${scratch}\nONLY=this\nPATH=/usr/bin:/bin\nPWD=${scratch}\n`);
    expect(run.stderr).toBe("oops\n");
  });

  it("puts stderr on stdout's stream when asked (2>&1), in order", async () => {
    const run = await runServed({
      argv: ["/bin/sh", "-c", "echo 1; echo 2 >&2; echo 3"],
      io: "npm",
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("1\n2\n3\n");
  });

  it("reports a death by signal by its name", async () => {
    const run = await runServed({ argv: ["/bin/sh", "-c", "kill -TERM $$"] });
    expect(run).toMatchObject({ code: null, signal: "SIGTERM" });
  });

  it("a closed stdout is a pipe nobody reads: the writer dies of SIGPIPE", async () => {
    const run = await runServed({
      argv: ["/bin/sh", "-c", "sleep 0.1; exec /bin/echo x"],
      io: "ncp",
    });
    expect(run.signal).toBe("SIGPIPE");
  });

  it("a program that does not exist is the error event with ENOENT, and nothing ran", async () => {
    const marker = join(scratch, "never");
    const run = await runServed({ argv: [join(scratch, "missing"), marker] });
    expect(run.error?.code).toBe("ENOENT");
    expect(existsSync(marker)).toBe(false);
    // Positive control: the same request shape with a program that exists runs.
    const control = await runServed({ argv: ["/usr/bin/touch", marker] });
    expect(control.code).toBe(0);
    expect(existsSync(marker)).toBe(true);
  });

  it("a working directory that does not exist fails the spawn, nothing runs there", async () => {
    const run = await runServed({ argv: ["/bin/true"], cwd: join(scratch, "no-such-dir") });
    expect(run.error?.code).toBe("ENOENT");
  });

  it("hands a private channel over as descriptor 3, and the child inherits nothing else", async () => {
    const channel = await openPrivateChannel();
    const hostFile = openSync(join(scratch, "host-secret"), "w");
    try {
      const received: Buffer[] = [];
      channel.parent.on("data", (chunk: Buffer) => received.push(chunk));
      channel.parent.resume();
      const run = await runServed({
        argv: [
          "/usr/bin/python3",
          "-c",
          "import os; fds=sorted(int(f) for f in os.listdir('/proc/self/fd')); os.write(3, b'over 3'); print(fds[:-1], os.getsid(0) == os.getpid(), os.getpgid(0) == os.getpid())",
        ],
        descriptors: [privateChannelChildEnd(channel.childFd) ?? null],
      });
      channel.releaseChildEnd();
      expect(run.stderr).toBe("");
      // 0-2 and the channel only (the last entry was listdir's own descriptor): not the
      // host's file, not the server's channel. Its own session and process group.
      expect(run.stdout).toBe("[0, 1, 2, 3] True True\n");
      await new Promise((resolve) => channel.parent.once("end", resolve));
      expect(Buffer.concat(received).toString()).toBe("over 3");
    } finally {
      closeSync(hostFile);
      channel.parent.destroy();
    }
  });

  it("many requests at once each get their own streams and status", async () => {
    const runs = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        runServed({ argv: ["/bin/sh", "-c", `echo ${i}; exit ${i % 7}`] }),
      ),
    );
    runs.forEach((run, i) => {
      expect(run.stdout).toBe(`${i}\n`);
      expect(run.code).toBe(i % 7);
    });
  });
});

describe("spawn server pipeline links", () => {
  it("links a stage's stdout to the next stage's stdin with a pipe of its own", async () => {
    const reader = await startServed({
      argv: ["/bin/sh", "-c", 'tr a-z A-Z; link=$(readlink /proc/$$/fd/0); echo "$link" >&2'],
      io: "lpp",
    });
    const writer = await runServed({
      argv: ["/bin/sh", "-c", 'echo linked; link=$(readlink /proc/$$/fd/1); echo "$link" >&2'],
      io: "nlp",
      to: reader.child,
    });
    const read = await reader.done;
    expect(writer.code).toBe(0);
    expect(read.stdout).toBe("LINKED\n");
    expect(writer.stderr).toMatch(/^pipe:\[\d+\]\n$/);
    expect(read.stderr).toBe(writer.stderr);
  });

  it("2>&1 into a link carries stderr too; l on 2 alone carries only stderr", async () => {
    const both = await startServed({ argv: ["/usr/bin/sort"], io: "lpp" });
    await runServed({ argv: ["/bin/sh", "-c", "echo b; echo a >&2"], io: "nlm", to: both.child });
    expect((await both.done).stdout).toBe("a\nb\n");
    const onlyErr = await startServed({ argv: ["/bin/cat"], io: "lpp" });
    const writer = await runServed({
      argv: ["/bin/sh", "-c", "echo out; echo err >&2"],
      io: "npl",
      to: onlyErr.child,
    });
    expect(writer.stdout).toBe("out\n");
    expect((await onlyErr.done).stdout).toBe("err\n");
  });

  it("a stage that does not write into the link still closes it: the reader sees end of file", async () => {
    const reader = await startServed({ argv: ["/usr/bin/wc", "-c"], io: "lpp" });
    await runServed({ argv: ["/bin/sh", "-c", "echo gone"], io: "ncp", to: reader.child });
    expect((await reader.done).stdout.trim()).toBe("0");
  });

  it("a writer whose reader already ended gets a pipe nobody reads (SIGPIPE), not a failed spawn", async () => {
    const reader = await startServed({ argv: ["/bin/true"], io: "lpp" });
    await reader.done;
    const writer = await runServed({
      argv: ["/bin/sh", "-c", "sleep 0.1; exec /bin/echo x"],
      io: "nlp",
      to: reader.child,
    });
    expect(writer.error).toBeUndefined();
    expect(writer.signal).toBe("SIGPIPE");
  });

  it("a failed writer request still closes the link: the reader ends", async () => {
    const reader = await startServed({ argv: ["/usr/bin/wc", "-c"], io: "lpp" });
    const writer = await runServed({
      argv: [join(scratch, "missing")],
      io: "nlp",
      to: reader.child,
    });
    expect(writer.error?.code).toBe("ENOENT");
    expect((await reader.done).stdout.trim()).toBe("0");
  });

  it("refuses a next stage this server did not start, and starts nothing", async () => {
    const server = await suiteServer();
    const marker = join(scratch, "not-linked");
    const stranger = new ServedChild(() => undefined);
    expect(() =>
      server.spawn({
        argv: ["/usr/bin/touch", marker],
        cwd: "/",
        env: {},
        io: "nlp",
        descriptors: [],
        to: stranger,
      }),
    ).toThrow(/not started by this server/);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(existsSync(marker)).toBe(false);
  });
});

/** A separate host process that serves `sleep 60` and reports the pids. */
function hostScript(launcher: string, action: "wait" | "exit"): string {
  const module = new URL("../../dist/spawn-server/spawn-server.js", import.meta.url).pathname;
  return `
    import { SpawnServer } from ${JSON.stringify(module)};
    const server = new SpawnServer(${JSON.stringify(launcher)});
    const child = server.spawn({ argv: ["/bin/sleep", ${action === "wait" ? '"60"' : '"0.1"'}], cwd: "/", env: {}, io: "npp", descriptors: [] });
    child.once("spawn", () => process.stdout.write(JSON.stringify({ child: child.pid }) + "\\n"));
    child.once("exit", () => process.stdout.write("exited\\n"));
  `;
}

function startHost(script: string) {
  const host = spawn(process.execPath, ["--input-type=module", "-e", script], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  let out = "";
  const first = new Promise<{ child: number }>((resolve) => {
    host.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split("\n")[0];
      if (out.includes("\n")) resolve(JSON.parse(line as string));
    });
  });
  return { host, first, output: () => out };
}

function serverOf(hostPid: number): number | undefined {
  const children = readFileSync(`/proc/${hostPid}/task/${hostPid}/children`, "utf8")
    .trim()
    .split(" ");
  return children
    .map(Number)
    .find((pid) => readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("--serve"));
}

describe("spawn server lifetime", () => {
  it("dies with its host, and kills what it started", async () => {
    const { host, first } = startHost(hostScript(await launcherPath(), "wait"));
    const { child } = await first;
    const server = serverOf(host.pid as number) as number;
    expect(alive(child)).toBe(true);
    expect(alive(server)).toBe(true);
    host.kill("SIGKILL");
    expect(await gone(server, 5000)).toBe(true);
    expect(await gone(child, 5000)).toBe(true);
  });

  it("never keeps its host alive once its children ended", async () => {
    const { host, first, output } = startHost(hostScript(await launcherPath(), "exit"));
    await first;
    const code = await new Promise<number | null>((resolve) =>
      host.once("exit", (c) => resolve(c)),
    );
    expect(code).toBe(0);
    expect(output()).toContain("exited\n");
  });
});
