import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { caveats, only, RunEnvelopeSchema, top } from "@agent-bridle/core";
import { useTempDirs } from "@agent-bridle-tools/test-kit";
import { describe, expect, it } from "vitest";
import { useBrushRegistries } from "./brush-registries.js";

const tempDir = useTempDirs("brush-life-", "each");
const brush = useBrushRegistries();

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("BrushShellTool: timeouts, cancellation, output, environment", () => {
  it("a timed-out call kills the worker's whole tree: a setsid descendant never writes its marker", async () => {
    // The launcher's PID namespace is what catches a descendant that left the tree
    // (setsid after a fork): a restricted grant engages it. Without a kernel backend a
    // re-parented escapee is a residual (ADR 0004).
    const dir = tempDir();
    const marker = join(dir, "late");
    const { registry } = brush({ kernel: true });
    const grant = registry.mintGrant(
      caveats({ fs_read: "all", fs_write: only([dir]), exec: "all", net: "all" }),
    );
    const started = performance.now();
    const envelope = RunEnvelopeSchema.parse(
      await registry.dispatch(
        "shell",
        {
          cmd: `setsid sh -c 'sleep 2; echo late > ${marker}' & sleep 30`,
          cwd: dir,
          timeout_secs: 1,
        },
        grant,
      ),
    );
    expect(performance.now() - started).toBeLessThan(5000);
    expect(envelope).toMatchObject({ exit_code: 124, timed_out: true, sandbox_kind: "landlock" });
    expect(envelope.stderr).toContain("command timed out after 1s");
    await sleep(2500);
    expect(existsSync(marker)).toBe(false);
  });

  it("cancellation through the AbortSignal kills the tree and ends the call", async () => {
    const dir = tempDir();
    const marker = join(dir, "after-cancel");
    const { registry } = brush();
    const grant = registry.mintGrant(top());
    const controller = new AbortController();
    const call = registry.dispatch("shell", { cmd: `sleep 2; echo > ${marker}`, cwd: dir }, grant, {
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 300);
    const envelope = RunEnvelopeSchema.parse(await call);
    expect(envelope).toMatchObject({ exit_code: 124, timed_out: false });
    await sleep(2300);
    expect(existsSync(marker)).toBe(false);
  });

  it("streams a pipe into an external program: yes | grep -m1 y ends at once, as in bash", async () => {
    const { registry } = brush();
    const grant = registry.mintGrant(top());
    const envelope = RunEnvelopeSchema.parse(
      await registry.dispatch(
        "shell",
        // biome-ignore lint/suspicious/noTemplateCurlyInString: a bash script, not a template
        { cmd: 'yes | grep -m1 y; echo "${PIPESTATUS[@]}"', cwd: "/", timeout_secs: 20 },
        grant,
      ),
    );
    expect(envelope).toMatchObject({ exit_code: 0, timed_out: false, stdout: "y\n141 0\n" });
  });

  it("hands process substitutions to external programs as files: diff <(…) <(…) works, also under Landlock", async () => {
    const dir = tempDir();
    for (const kernel of [false, true]) {
      const { registry } = brush({ kernel });
      const grant = registry.mintGrant(
        kernel
          ? caveats({
              fs_read: "all",
              fs_write: only([dir]),
              exec: only(["diff", "sort", "wc"]),
              net: "all",
            })
          : top(),
      );
      const envelope = RunEnvelopeSchema.parse(
        await registry.dispatch(
          "shell",
          {
            cmd: "diff <(printf 'a\\nb\\n') <(printf 'a\\nc\\n'); echo status=$?; wc -l < <(printf 'x\\ny\\n')",
            cwd: dir,
          },
          grant,
        ),
      );
      expect(envelope.stdout).toBe("2c2\n< b\n---\n> c\nstatus=1\n2\n");
    }
    expect(readdirSync(dir)).toEqual([]);
  });

  it("hands descriptors the script arranged to programs by number (exec 3<f, exec 4>f), as bash", async () => {
    const dir = tempDir();
    const { registry } = brush();
    const envelope = RunEnvelopeSchema.parse(
      await registry.dispatch(
        "shell",
        {
          cmd: "printf 'from three\\n' > in; exec 3<in; /bin/sh -c 'cat <&3'; exec 4>out; /bin/sh -c 'echo to four >&4'; exec 4>&-; cat out",
          cwd: dir,
        },
        registry.mintGrant(top()),
      ),
    );
    expect(envelope).toMatchObject({ exit_code: 0, stdout: "from three\nto four\n", stderr: "" });
  });

  it("streams output live to the observer, and the envelope holds the same bytes", async () => {
    const chunks: string[] = [];
    let finished = false;
    const { registry } = brush({
      observer: {
        onOutput: (_id, stream, chunk) => {
          if (stream === "stdout") chunks.push(Buffer.from(chunk).toString());
        },
        onFinish: () => {
          finished = true;
        },
      },
    });
    const grant = registry.mintGrant(top());
    const envelope = RunEnvelopeSchema.parse(
      await registry.dispatch(
        "shell",
        { cmd: "for i in 1 2 3; do echo $i; done", cwd: "/" },
        grant,
      ),
    );
    await sleep(50);
    expect(chunks.join("")).toBe(envelope.stdout);
    expect(envelope.stdout).toBe("1\n2\n3\n");
    expect(finished).toBe(true);
  });

  it("caps each stream, counts the excess and sets the flag", async () => {
    const { registry } = brush({ maxOutput: 1000 });
    const grant = registry.mintGrant(top());
    const envelope = RunEnvelopeSchema.parse(
      await registry.dispatch(
        "shell",
        { cmd: "i=0; while (( i < 300 )); do echo 0123456789; (( i++ )); done", cwd: "/" },
        grant,
      ),
    );
    expect(envelope.stdout.length).toBe(1000);
    expect(envelope.stdout_truncated).toBe(true);
    expect(envelope.stderr_truncated).toBe(false);
  });

  it("applies the request env inside the interpreter; children get exported variables minus the denylist", async () => {
    const { registry } = brush();
    const grant = registry.mintGrant(top());
    const envelope = RunEnvelopeSchema.parse(
      await registry.dispatch(
        "shell",
        {
          cmd: 'echo "$GREETING"; export LD_PRELOAD=/nowhere.so; /usr/bin/env | grep -c "^LD_PRELOAD=" ; echo $HOME',
          env: { GREETING: "hello" },
          cwd: "/",
        },
        grant,
      ),
    );
    expect(envelope.stdout).toBe("hello\n0\n/nonexistent-home\n");
  });

  it("refuses a cwd outside fs_read in-band, before any worker starts", async () => {
    const dir = tempDir();
    const { registry } = brush();
    const grant = registry.mintGrant(
      caveats({ fs_read: only([join(dir, "inside")]), fs_write: "all", exec: "all", net: "all" }),
    );
    const result = await registry.dispatch("shell", { cmd: "echo hi", cwd: dir }, grant);
    expect(result).toMatchObject({ denials: [expect.objectContaining({ kind: "open" })] });
  });
});
