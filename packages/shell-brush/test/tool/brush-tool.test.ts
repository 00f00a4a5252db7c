import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  caveats,
  defaultPathPolicy,
  only,
  Registry,
  RunEnvelopeSchema,
  top,
} from "@agent-bridle/core";
import { NONE_BACKEND } from "@agent-bridle/sandbox";
import { NOWHERE_HOME, useTempDirs } from "@agent-bridle-tools/test-kit";
import { describe, expect, it } from "vitest";
import { createBrushShellTool } from "../../src/tool/brush-shell-tool.js";
import { useBrushRegistries } from "./brush-registries.js";

const tempDir = useTempDirs("brush-tool-", "each");
const brush = useBrushRegistries();

describe("BrushShellTool: the bash worker end to end", () => {
  it("runs a script in a fresh worker: builtins, an external program, status", async () => {
    const dir = tempDir();
    const { registry } = brush();
    const grant = registry.mintGrant(top());
    const envelope = RunEnvelopeSchema.parse(
      await registry.dispatch(
        "shell",
        {
          cmd: 'x=$(printf "%s" hi); echo "$x" | /bin/cat; for i in 1 2; do echo $i; done; exit 3',
          cwd: dir,
        },
        grant,
      ),
    );
    expect(envelope.stdout).toBe("hi\n1\n2\n");
    expect(envelope.exit_code).toBe(3);
    expect(envelope.disclosure?.engine).toBe("brush");
  });

  it("keeps the worker's own variables (nonce, launcher, huge-page tunable) out of the script and its programs", async () => {
    const dir = tempDir();
    const { registry } = brush({ kernel: true });
    const grant = registry.mintGrant(
      caveats({ fs_read: "all", fs_write: only([dir]), exec: only(["env"]), net: only([]) }),
    );
    const envelope = RunEnvelopeSchema.parse(
      await registry.dispatch(
        "shell",
        {
          cmd: 'echo "[$GLIBC_TUNABLES][$AGENT_BRIDLE_WORKER_NONCE][$AGENT_BRIDLE_LAUNCHER]"; env',
          cwd: dir,
        },
        grant,
      ),
    );
    expect(envelope.sandbox_kind).toBe("landlock");
    const [first, ...seen] = envelope.stdout.trim().split("\n");
    expect(first).toBe("[][][]");
    const names = seen.map((line) => line.slice(0, line.indexOf("=")));
    // Control: the program does see the environment the script exports.
    expect(names).toEqual(expect.arrayContaining(["PATH", "HOME", "TMPDIR"]));
    expect(names.filter((name) => /GLIBC|AGENT_BRIDLE/.test(name))).toEqual([]);
  });

  it("denies a program outside the exec grant with 126 and the reference text; nothing ran", async () => {
    const dir = tempDir();
    const marker = join(dir, "touched");
    const { registry } = brush();
    const grant = registry.mintGrant(
      caveats({ fs_read: "all", fs_write: "all", exec: only(["echo"]), net: "all" }),
    );
    const envelope = RunEnvelopeSchema.parse(
      await registry.dispatch("shell", { cmd: `touch ${marker}; echo after $?`, cwd: dir }, grant),
    );
    expect(envelope.stdout).toBe("after 126\n");
    expect(envelope.stderr).toContain("touch: execution denied:");
    expect(envelope.denials?.map((d) => d.kind)).toEqual(["exec"]);
    expect(existsSync(marker)).toBe(false);
  });

  it("finds a granted program on PATH although fs_read does not cover its directory, and runs it under Landlock", async () => {
    const a = tempDir();
    const { registry } = brush({ kernel: true });
    const grant = registry.mintGrant(
      caveats({ fs_read: only([a]), fs_write: "all", exec: only(["id"]), net: "all" }),
    );
    const envelope = RunEnvelopeSchema.parse(
      await registry.dispatch(
        "shell",
        { cmd: "id -u; test -e /usr/bin/id; echo $?; whoami; echo $?", cwd: a },
        grant,
      ),
    );
    expect(envelope.stdout).toBe(`${process.getuid?.()}\n1\n126\n`);
    expect(envelope.stderr).toContain("whoami: execution denied");
    expect(envelope.sandbox_kind).toBe("landlock");
    expect(envelope.denials?.map((denial) => denial.kind)).toEqual(["open", "exec"]);
  });

  it("under Landlock writes only inside fs_write and reports kernel", async () => {
    const a = tempDir();
    const b = tempDir();
    const { registry } = brush({ kernel: true });
    const grant = registry.mintGrant(
      caveats({
        fs_read: only([a, b, "/usr", "/bin", "/lib", "/etc"]),
        fs_write: only([a]),
        exec: "all",
        net: "all",
      }),
    );
    const envelope = RunEnvelopeSchema.parse(
      await registry.dispatch(
        "shell",
        { cmd: `echo "$(echo dynamic-ran)" > ${a}/ok.txt; echo escaped > ${b}/evil.txt`, cwd: a },
        grant,
      ),
    );
    expect(readFileSync(join(a, "ok.txt"), "utf8")).toBe("dynamic-ran\n");
    expect(existsSync(join(b, "evil.txt"))).toBe(false);
    expect(envelope.sandbox_kind).toBe("landlock");
    expect(envelope.exit_code).not.toBe(0);
    writeFileSync(join(a, "done"), "");
  });
});

describe("BrushShellTool and the approval hook", () => {
  it("hands the hook the script's shell_inspection; a refusal runs nothing", async () => {
    const dir = tempDir();
    const marker = join(dir, "ran");
    const seen: unknown[] = [];
    const tool = createBrushShellTool({
      home: "/nonexistent-home",
      tmpdir: "/tmp",
      backend: NONE_BACKEND,
      warm: false,
    });
    const registry = Registry.builder()
      .tool(tool)
      .pathPolicy(defaultPathPolicy({ platform: "linux", home: NOWHERE_HOME }))
      .approvalHook((request) => {
        seen.push(request.inspection);
        return { approved: false, reason: "not today" };
      })
      .build();
    const result = await registry.dispatch(
      "shell",
      { cmd: `touch ${marker}`, cwd: dir },
      registry.mintGrant(top()),
    );
    expect(JSON.stringify(result)).toContain("APPROVAL_REFUSED");
    expect(seen).toHaveLength(1);
    expect(JSON.stringify(seen[0])).toContain("touch");
    expect(existsSync(marker)).toBe(false);
  });
});
