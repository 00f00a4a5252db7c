// The funnel starts a confined single stage through the spawn server (ADR 0023): the
// launcher's parent is the server, not this process; with the switch off it is this
// process again. Linux only: the server is the Linux launcher.
import { readFileSync, realpathSync } from "node:fs";
import { NO_COVERAGE, only } from "@agent-bridle/core";
import { afterEach, describe, expect, it } from "vitest";
import { createLandlockBackend } from "../../src/backend/landlock-backend.js";
import { createSandbox } from "../../src/funnel/sandbox.js";
import { contextFor, useTempDir } from "../funnel/helpers/funnel-context.js";
import { parentOf } from "./served.js";

const tempDir = useTempDir();
const sandbox = createSandbox({
  home: "/nonexistent-home",
  tmpdir: "/tmp",
  backend: createLandlockBackend(),
});

async function launcherParent(): Promise<{ parent: number; stdout: string }> {
  const dir = realpathSync(tempDir());
  const cx = contextFor({ fs_write: only([dir]) });
  let parent = 0;
  const outcome = await sandbox.run(
    cx,
    {
      cwd: dir,
      timeoutMs: 5000,
      maxOutputBytes: 65536,
      stages: [["/bin/sh", "-c", "sleep 0.5; echo served"]],
      onLaunched: () => {
        // Once it exec'd, the stage's launcher is the one process of this tree running
        // `--policy`; looked at while the stage sleeps.
        setTimeout(() => {
          parent = launchers().map(parentOf)[0] ?? 0;
        }, 200);
      },
    },
    { coverage: NO_COVERAGE },
  );
  expect(outcome).toMatchObject({ kind: "ran", sandboxKind: "landlock" });
  return { parent, stdout: outcome.kind === "ran" ? outcome.result.stdout.toString() : "" };
}

function launchers(): number[] {
  const found: number[] = [];
  for (const entry of readFileSync(`/proc/self/task/${process.pid}/children`, "utf8")
    .trim()
    .split(" ")) {
    const pid = Number(entry);
    if (!(pid > 0)) continue;
    const grand = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(" ");
    for (const candidate of [pid, ...grand.map(Number).filter((n) => n > 0)]) {
      const cmdline = readFileSync(`/proc/${candidate}/cmdline`, "utf8").split("\0");
      if (cmdline[1] === "--policy") found.push(candidate);
    }
  }
  return found;
}

afterEach(() => {
  delete process.env.AGENT_BRIDLE_SPAWN_SERVER;
});

describe.skipIf(process.platform !== "linux")("the funnel and the spawn server", () => {
  it("starts a confined stage through the server: the launcher is the server's child", async () => {
    const { parent, stdout } = await launcherParent();
    expect(stdout).toBe("served\n");
    expect(parent).not.toBe(process.pid);
    expect(readFileSync(`/proc/${parent}/cmdline`, "utf8").split("\0")[1]).toBe("--serve");
  });

  it("with AGENT_BRIDLE_SPAWN_SERVER=off the launcher is this process's own child", async () => {
    process.env.AGENT_BRIDLE_SPAWN_SERVER = "off";
    const { parent, stdout } = await launcherParent();
    expect(stdout).toBe("served\n");
    expect(parent).toBe(process.pid);
  });
});
