import { existsSync, mkdtempSync, readdirSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brushWorkers, descendantsOf, isSpawnServer, waitFor } from "@agent-bridle-tools/test-kit";
import { afterEach, describe, expect, it } from "vitest";
import { caveats, registry, type ShellInspection } from "../src/index.js";

const made: string[] = [];
afterEach(() => {
  for (const directory of made.splice(0)) rmSync(directory, { recursive: true, force: true });
});
function tempDir(): string {
  const directory = realpathSync(mkdtempSync(join(tmpdir(), "bridle-facade-brush-")));
  made.push(directory);
  return directory;
}

interface RunResult {
  readonly exit_code: number;
  readonly stdout: string;
  readonly stderr: string;
  readonly sandbox_kind: string;
  readonly enforcement: Record<string, string>;
  readonly disclosure: {
    readonly engine?: string;
    readonly human_gate?: string;
    readonly private_temp_dir?: string;
  };
  readonly denials?: readonly { readonly code: string }[];
}

// The launcher (Landlock, seccomp, PID namespace) and /proc are Linux's; macOS's bash
// engine runs under the experimental Seatbelt backend, which CI does not cover.
describe.skipIf(process.platform !== "linux")(
  "the default shell is the bash engine (Linux)",
  () => {
    it("runs full bash under the grant, and a program outside it fails with 126 and runs nothing", async () => {
      const dir = tempDir();
      const built = registry({ baseDir: dir });
      const grant = caveats({
        fs_read: "all",
        fs_write: { only: [dir] },
        exec: { only: ["echo", "wc"] },
        net: { only: [] },
      });
      const result = (await built.dispatchOneshot(
        "shell",
        {
          cmd: 'f() { for i in 1 2 3; do echo "$i"; done; }; f | wc -l; pwd; touch marker; echo "touch: $?"',
        },
        grant,
      )) as RunResult;
      expect(result.stdout).toBe(`3\n${dir}\ntouch: 126\n`);
      expect(result.stderr).toContain("execution denied");
      expect(result.disclosure.engine).toBe("brush");
      expect(result.sandbox_kind).toBe("landlock");
      expect(result.enforcement).toMatchObject({ exec: "interceptor", fs_write: "kernel" });
      expect(readdirSync(dir)).toEqual([]);
      await built.close();
    });

    it("gives the approval hook the script's shell_inspection; a refusal runs nothing", async () => {
      const dir = tempDir();
      const seen: { arguments: unknown; inspection?: unknown }[] = [];
      let approve = false;
      const built = registry({
        baseDir: dir,
        approval: (request) => {
          seen.push({ arguments: request.arguments, inspection: request.inspection });
          return approve;
        },
      });
      const grant = caveats({
        fs_read: "all",
        fs_write: { only: [dir] },
        exec: { only: ["touch", "echo"] },
        net: "all",
      });
      const refused = (await built.dispatchOneshot("shell", { cmd: "touch marker" }, grant)) as {
        denials?: { code: string }[];
      };
      expect(refused.denials?.[0]?.code).toBe("APPROVAL_REFUSED");
      expect(existsSync(join(dir, "marker"))).toBe(false);
      const inspection = seen[0]?.inspection as ShellInspection;
      expect(inspection.commands.map((command) => command.argv)).toEqual([["touch", "marker"]]);

      approve = true;
      const ran = (await built.dispatchOneshot(
        "shell",
        { cmd: "touch marker" },
        grant,
      )) as RunResult;
      expect(ran.exit_code).toBe(0);
      expect(ran.disclosure.human_gate).toBe("approval_hook");
      expect(existsSync(join(dir, "marker"))).toBe(true);
      await built.close();
    });

    it("close() ends the warm worker: no worker, launcher or child of the registry remains", async () => {
      const before = descendantsOf().map((live) => live.pid);
      const dir = tempDir();
      const built = registry({ baseDir: dir });
      const result = (await built.dispatchOneshot(
        "shell",
        { cmd: "echo warm" },
        caveats({ fs_read: "all", fs_write: "all", exec: { only: ["echo"] }, net: "all" }),
      )) as RunResult;
      expect(result.stdout).toBe("warm\n");
      // After a call the engine pre-starts one worker for the next call with the same grant.
      await waitFor(() => brushWorkers(descendantsOf()).length === 1);
      const started = descendantsOf().filter(
        (live) => !before.includes(live.pid) && !isSpawnServer(live),
      );
      expect(started.length).toBeGreaterThan(0);

      await built.close();
      const remaining = descendantsOf().map((live) => live.pid);
      expect(brushWorkers(descendantsOf())).toEqual([]);
      for (const live of started) expect(remaining).not.toContain(live.pid);
    });

    it("takes the engine options: no warm worker when warm is false, HOME from shellOptions", async () => {
      const dir = tempDir();
      const home = tempDir();
      const built = registry({
        baseDir: dir,
        // The former name still works; shellOptions wins where both set a field.
        hostShell: { home: "/nonexistent-old-name", tmpdir: dir },
        shellOptions: { home, warm: false },
      });
      const result = (await built.dispatchOneshot(
        "shell",
        { cmd: 'echo "$HOME $TMPDIR"' },
        caveats({ fs_read: "all", fs_write: "all", exec: { only: ["echo"] }, net: "all" }),
      )) as RunResult;
      // TMPDIR: the call's private directory, made under the configured one and disclosed.
      expect(result.stdout).toMatch(new RegExp(`^${home} ${dir}/bridle-call-\\w+\\n$`));
      expect(result.stdout.trim().split(" ")[1]).toBe(result.disclosure?.private_temp_dir);
      await waitFor(() => brushWorkers(descendantsOf()).length === 0);
      await built.close();
    });
  },
);
