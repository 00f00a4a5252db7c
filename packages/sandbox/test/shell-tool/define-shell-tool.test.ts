import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  type BashScriptInput,
  bashScriptInputSchema,
  ConfigurationError,
  DEFAULT_SHELL_LIMITS,
  type ShellLimits,
} from "@agent-bridle/core";
import { registryWith, useTempDirs } from "@agent-bridle-tools/test-kit";
import { describe, expect, it } from "vitest";
import { NONE_BACKEND } from "../../src/backend/none-backend.js";
import { nothingStarted } from "../../src/funnel/run-result.js";
import type { CommonShellToolOptions } from "../../src/shell-tool/common-shell-tool-options.js";
import { defineShellTool } from "../../src/shell-tool/define-shell-tool.js";

const tempDir = useTempDirs("shell-kit-");

/**
 * An engine that runs nothing: it judges the working directory through the kit, then
 * "runs" by writing a marker file in it, so a refusal can be shown to have reached no
 * `run` step. `cmd` picks the outcome.
 */
function markerTool(options: Partial<CommonShellToolOptions> = {}) {
  const made: string[] = [];
  const tool = defineShellTool<BashScriptInput, ShellLimits>(
    { home: "/nonexistent-home", tmpdir: tempDir(), backend: NONE_BACKEND, ...options },
    DEFAULT_SHELL_LIMITS,
    ({ limits }) => {
      made.push("engine");
      return {
        engine: "kit-test",
        description: "A test engine.",
        inputSchema: bashScriptInputSchema(limits, "what to pretend"),
        async run(call) {
          const cwd = await call.workingDirectory();
          if (!cwd.ok) return call.refuse(cwd.denial);
          writeFileSync(join(cwd.path, "ran"), call.input.cmd);
          return call.ran(nothingStarted(false), {
            exitCode: call.input.cmd === "slow" ? 124 : 0,
            stdout: "out",
            stderr: "err\n",
            timedOut: call.input.cmd === "slow",
            stdoutTruncated: false,
            stderrTruncated: false,
            denials: [],
            limitsExceeded: call.input.cmd === "big" ? ["memory"] : [],
            limits: undefined,
          });
        },
      };
    },
  );
  return { tool, made };
}

describe("the shell-tool kit", () => {
  it("refuses relative baseDir, home and tmpdir for every engine, before the engine is made", () => {
    for (const options of [{ baseDir: "rel" }, { home: "rel" }, { tmpdir: "rel" }]) {
      let made: string[] = [];
      expect(() => {
        made = markerTool(options).made;
      }).toThrow(ConfigurationError);
      expect(made).toEqual([]);
    }
    expect(markerTool().made).toEqual(["engine"]);
  });

  it("a timed-out run's stderr ends with the timeout text; a limit run into is a denial", async () => {
    const dir = tempDir();
    const { tool } = markerTool({ baseDir: dir });
    const { dispatch } = registryWith(tool);
    const slow = await dispatch({ cmd: "slow", timeout_secs: 7 });
    expect(slow).toMatchObject({ exit_code: 124, stderr: "err\ncommand timed out after 7s\n" });
    expect((slow.disclosure as { engine?: string }).engine).toBe("kit-test");
    const quick = await dispatch({ cmd: "quick" });
    expect(quick).toMatchObject({ exit_code: 0, stdout: "out", stderr: "err\n" });
    expect(quick.denied).toBeUndefined();
    const big = await dispatch({ cmd: "big" });
    expect(big).toMatchObject({ denied: true, denials: [{ code: "LIMIT_EXCEEDED" }] });
  });

  it("a working directory outside the grant is refused in-band and run goes no further", async () => {
    const granted = tempDir();
    const outside = tempDir();
    const { tool } = markerTool({ baseDir: granted });
    const { dispatch } = registryWith(tool);
    const only = { fs_read: { only: [granted] }, fs_write: { only: [granted] } };
    const refused = await dispatch({ cmd: "x", cwd: outside }, only);
    expect(refused).toMatchObject({ denied: true, denials: [{ kind: "open" }] });
    expect(refused.exit_code).toBeUndefined();
    expect(existsSync(join(outside, "ran"))).toBe(false);
    // Control: inside the grant the engine's run is reached.
    expect(await dispatch({ cmd: "x", cwd: granted }, only)).toMatchObject({ exit_code: 0 });
    expect(existsSync(join(granted, "ran"))).toBe(true);
  });
});
