import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  type AuditEvent,
  type Caveats,
  caveats,
  defaultPathPolicy,
  only,
  Registry,
  top,
} from "@agent-bridle/core";
import { NONE_BACKEND } from "@agent-bridle/sandbox";
import { describe, expect, it } from "vitest";
import { createShellTool } from "../../src/index.js";
import { asDenied, asRun, HOME, useTempDirs } from "./helpers.js";

const tempDir = useTempDirs();

/** A trusted PATH that holds no program at all: every granted one of the six is carried. */
const NOWHERE_PATH = "/nonexistent-bin:/nonexistent-usr-bin";

function carriedShell(baseDir: string) {
  const events: AuditEvent[] = [];
  const tool = createShellTool({
    home: HOME,
    tmpdir: "/tmp",
    baseDir,
    backend: NONE_BACKEND,
    searchPath: NOWHERE_PATH,
  });
  const registry = Registry.builder()
    .tool(tool)
    .pathPolicy(defaultPathPolicy({ platform: "linux", home: HOME }))
    .audit({ record: (event) => void events.push(event) })
    .build();
  const dispatch = (args: unknown, partial: Partial<Caveats> = {}) =>
    registry.dispatch(
      "shell",
      args,
      registry.mintGrant(caveats({ ...top(), ...partial })),
    ) as Promise<Record<string, unknown>>;
  const spawned = () =>
    events.flatMap((event) =>
      event.type === "spawn" && event.decision === "admitted" ? [event.argv] : [],
    );
  return { dispatch, spawned };
}

describe("carried coreutils fallback (spec §7, §8): the trusted PATH lacks the utility", () => {
  it("echo hi runs as the carried echo, spawned as node <entry> --invoke-bundled echo", async () => {
    const { dispatch, spawned } = carriedShell(tempDir());
    const envelope = asRun(await dispatch({ cmd: "echo hi" }, { exec: only(["echo"]) }));
    expect(envelope).toMatchObject({ exit_code: 0, stdout: "hi\n", stderr: "" });
    const [argv] = spawned();
    expect(argv?.[0]).toBe(process.execPath);
    expect(argv?.slice(2)).toEqual(["--invoke-bundled", "echo", "hi"]);
  });

  it("the argv form runs the carried utility with its arguments literal", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "a b"), "spaced\n");
    const { dispatch } = carriedShell(dir);
    const envelope = asRun(await dispatch({ program: "cat", args: ["a b"] }));
    expect(envelope).toMatchObject({ exit_code: 0, stdout: "spaced\n" });
  });

  it("a pipeline of carried stages, each with its own private channel, and a redirect", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "f"), "pear\napple\nfig\napple\n");
    const { dispatch, spawned } = carriedShell(dir);
    const grant = { exec: only(["cat", "sort", "head", "wc"]) };
    const envelope = asRun(await dispatch({ cmd: "cat f | sort | head -n 3 > top" }, grant));
    expect(envelope).toMatchObject({ exit_code: 0, stdout: "", stderr: "" });
    expect(readFileSync(join(dir, "top"), "utf8")).toBe("apple\napple\nfig\n");
    expect(spawned().map((argv) => argv[3])).toEqual(["cat", "sort", "head"]);
    const counted = asRun(await dispatch({ cmd: "cat < f | wc -l" }, grant));
    expect(counted).toMatchObject({ exit_code: 0, stdout: "4\n" });
  });

  it("the exec check is on the logical name: an ungranted carried utility is refused, nothing runs", async () => {
    const dir = tempDir();
    const { dispatch, spawned } = carriedShell(dir);
    const denied = asDenied(await dispatch({ cmd: "ls > listing" }, { exec: only(["echo"]) }));
    expect(denied.denials[0]).toMatchObject({
      kind: "exec",
      target: "ls",
      code: "EXEC_NOT_GRANTED",
    });
    expect(existsSync(join(dir, "listing"))).toBe(false);
    expect(spawned()).toEqual([]);
  });

  it("a program outside the six that the PATH lacks is not found (127), in a pipeline too", async () => {
    const dir = tempDir();
    const { dispatch } = carriedShell(dir);
    const missing = asRun(await dispatch({ cmd: "touch made" }));
    expect(missing.exit_code).toBe(127);
    expect(missing.stderr).toContain("touch: command not found");
    expect(existsSync(join(dir, "made"))).toBe(false);
    const piped = asRun(await dispatch({ cmd: "touch made | echo after" }));
    expect(piped).toMatchObject({ exit_code: 0, stdout: "after\n" });
    expect(existsSync(join(dir, "made"))).toBe(false);
  });
});
