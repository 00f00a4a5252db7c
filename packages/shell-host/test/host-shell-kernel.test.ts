import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { only, RunEnvelopeSchema } from "@agent-bridle/core";
import { createLandlockBackend } from "@agent-bridle/sandbox";
import { describe, expect, it } from "vitest";
import { createHostShellTool } from "../src/host-shell-tool.js";
import { registryWith, useTempDirs } from "./helpers.js";

// Linux only: these run bash under the real launcher (Landlock, seccomp, PID namespace).
const tempDir = useTempDirs();
const tool = (baseDir: string) =>
  createHostShellTool({
    home: "/nonexistent-home",
    tmpdir: "/tmp",
    baseDir,
    backend: createLandlockBackend(),
  });

describe.skipIf(process.platform !== "linux")("host shell on the kernel boundary (Linux)", () => {
  it("case 76: fs_write only[a]: a substitution writes a/ok.txt; b/evil.txt is never written; landlock", async () => {
    const a = tempDir();
    const b = tempDir();
    const { dispatch } = registryWith(tool(a));
    const cmd = `echo "$(echo dynamic-ran)" > ${a}/ok.txt; echo escaped > ${b}/evil.txt`;
    const envelope = RunEnvelopeSchema.parse(await dispatch({ cmd }, { fs_write: only([a]) }));
    expect(envelope).toMatchObject({
      sandbox_kind: "landlock",
      enforcement: { fs_write: "kernel" },
    });
    expect(envelope.disclosure).toMatchObject({ engine: "sandbox-host" });
    expect(readFileSync(join(a, "ok.txt"), "utf8")).toBe("dynamic-ran\n");
    expect(existsSync(join(b, "evil.txt"))).toBe(false);
    expect(envelope.exit_code).not.toBe(0);
  });

  it("net only[]: a TCP connection to a 127.0.0.1 listener fails and the listener sees nothing", async () => {
    let connections = 0;
    const server = createServer(() => {
      connections += 1;
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as { port: number };
    try {
      const { dispatch } = registryWith(tool(tempDir()));
      const envelope = RunEnvelopeSchema.parse(
        await dispatch(
          { cmd: `echo hi > /dev/tcp/127.0.0.1/${port} && echo connected` },
          { net: only([]) },
        ),
      );
      expect(envelope).toMatchObject({ sandbox_kind: "landlock", enforcement: { net: "kernel" } });
      expect(envelope.stdout).not.toContain("connected");
      expect(envelope.exit_code).not.toBe(0);
      expect(connections).toBe(0);
    } finally {
      server.close();
    }
  });

  it("case 74: exec only[echo] is served with Landlock execute rules; an ungranted program cannot run", async () => {
    const a = tempDir();
    const sentinel = join(a, "sentinel");
    const { dispatch } = registryWith(tool(a));
    const envelope = RunEnvelopeSchema.parse(
      await dispatch(
        { cmd: `echo builtin-ok; /usr/bin/touch ${sentinel}` },
        { exec: only(["echo"]) },
      ),
    );
    expect(envelope).toMatchObject({
      sandbox_kind: "landlock",
      enforcement: { exec: "interceptor" },
    });
    expect(envelope.stdout).toBe("builtin-ok\n");
    expect(envelope.exit_code).toBe(126);
    expect(existsSync(sentinel)).toBe(false);
  });

  it("issue 17 point 10: exec interceptor under Landlock discloses exec_via execute_rules (no interceptor runs)", async () => {
    const a = tempDir();
    const { dispatch } = registryWith(tool(a));
    const restricted = RunEnvelopeSchema.parse(
      await dispatch({ cmd: "echo ran" }, { exec: only(["echo"]) }),
    );
    expect(restricted).toMatchObject({ exit_code: 0, stdout: "ran\n" });
    expect(restricted.enforcement).toEqual({ exec: "interceptor" });
    expect(restricted.disclosure).toMatchObject({
      engine: "sandbox-host",
      exec_via: "execute_rules",
    });
    // exec unrestricted: there is no exec strength to explain, so no mechanism either.
    const unrestricted = RunEnvelopeSchema.parse(
      await dispatch({ cmd: "echo ran" }, { fs_write: only([a]) }),
    );
    expect(unrestricted).toMatchObject({ exit_code: 0, sandbox_kind: "landlock" });
    expect(unrestricted.enforcement).not.toHaveProperty("exec");
    expect(unrestricted.disclosure).not.toHaveProperty("exec_via");
  });

  it("a timed-out setsid descendant never writes its marker", async () => {
    const a = tempDir();
    const marker = join(a, "late-marker");
    const { dispatch } = registryWith(tool(a));
    const started = performance.now();
    const envelope = RunEnvelopeSchema.parse(
      await dispatch(
        { cmd: `setsid sh -c 'sleep 2; echo late > ${marker}' & sleep 30`, timeout_secs: 1 },
        { fs_write: only([a]) },
      ),
    );
    expect(performance.now() - started).toBeLessThan(2500);
    expect(envelope).toMatchObject({ timed_out: true, exit_code: 124, sandbox_kind: "landlock" });
    await new Promise((resolve) => setTimeout(resolve, 3000));
    expect(existsSync(marker)).toBe(false);
  });

  it("reads outside fs_read fail; the granted file is read", async () => {
    const a = tempDir();
    const outside = tempDir();
    writeFileSync(join(a, "in.txt"), "inside\n");
    writeFileSync(join(outside, "secret.txt"), "CANARY-HOST-READ\n");
    const { dispatch } = registryWith(tool(a));
    const envelope = RunEnvelopeSchema.parse(
      await dispatch({ cmd: `cat ${a}/in.txt; cat ${outside}/secret.txt` }, { fs_read: only([a]) }),
    );
    expect(envelope.stdout).toBe("inside\n");
    expect(envelope.stdout + envelope.stderr).not.toContain("CANARY");
    expect(envelope).toMatchObject({
      sandbox_kind: "landlock",
      enforcement: { fs_read: "kernel" },
    });
  });
});
