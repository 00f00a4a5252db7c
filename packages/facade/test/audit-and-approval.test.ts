import { existsSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { useTempDirs } from "@agent-bridle-tools/test-kit";
import { afterEach, describe, expect, it } from "vitest";
import {
  type AuditEvent,
  type Caveats,
  caveats,
  only,
  type Registry,
  registry,
  type ShellChoice,
} from "../src/index.js";

// Issue 17 point 8: refused programs reach the audit hook, every event of a call carries
// its id, and approval is asked only once the checks passed (validate → judge → approve → run).
const tempDir = useTempDirs("bridle-audit-approval-", "all");
const onBrushPlatform = process.platform === "linux" || process.platform === "darwin";
const opened: Registry[] = [];
afterEach(async () => {
  for (const built of opened.splice(0)) await built.close();
});

/** Where the trusted `PATH` finds programs: readable, so they can be found and run. */
const PROGRAM_DIRECTORIES = ["/usr/local/bin", "/usr/bin", "/bin"];

function grantFor(dir: string, programs: readonly string[]): Caveats {
  return caveats({
    fs_read: only([dir, ...PROGRAM_DIRECTORIES]),
    fs_write: only([dir]),
    exec: only([...programs]),
    net: "all",
    max_calls: "unlimited",
    valid_for_generation: "all",
  });
}

interface Watched {
  readonly built: Registry;
  readonly events: AuditEvent[];
  /** What the approval hook saw, and whether the marker existed when it was asked. */
  readonly asked: { tool: string; markerExisted: boolean }[];
}

function watched(dir: string, shell: ShellChoice, approve = true): Watched {
  const events: AuditEvent[] = [];
  const asked: Watched["asked"] = [];
  const built = registry({
    shell,
    baseDir: dir,
    audit: { record: (event) => events.push(event) },
    approval: (request) => {
      asked.push({ tool: request.tool, markerExisted: existsSync(join(dir, "marker")) });
      return approve;
    },
  });
  opened.push(built);
  return { built, events, asked };
}

const refusedSpawns = (events: readonly AuditEvent[]) =>
  events.filter((event) => event.type === "spawn" && event.decision === "denied");

describe.each((onBrushPlatform ? ["brush", "safe"] : ["safe"]) as ShellChoice[])(
  "a program the %s engine refuses",
  (shell) => {
    it("reaches the audit hook as a refused spawn with its argv and code, and does not run", async () => {
      const dir = tempDir();
      writeFileSync(join(dir, "keep.txt"), "kept\n");
      const { built, events } = watched(dir, shell);
      const grant = built.mintGrant(grantFor(dir, ["touch"]));
      await built.dispatch("shell", { cmd: "rm -f keep.txt" }, grant);
      expect(existsSync(join(dir, "keep.txt"))).toBe(true);
      expect(refusedSpawns(events)).toEqual([
        expect.objectContaining({
          type: "spawn",
          tool: "shell",
          decision: "denied",
          code: "EXEC_NOT_GRANTED",
          argv: shell === "brush" ? ["rm", "-f", "keep.txt"] : ["rm"],
        }),
      ]);
      // Positive control: a granted program is admitted and runs.
      await built.dispatch("shell", { cmd: "touch made" }, grant);
      expect(existsSync(join(dir, "made"))).toBe(true);
      expect(events).toContainEqual(
        expect.objectContaining({ type: "spawn", decision: "admitted" }),
      );
    });
  },
);

describe("call ids", () => {
  it.skipIf(!onBrushPlatform)(
    "every event of a bash call (spawns and the report included) carries that call's id, warm worker or not",
    async () => {
      const dir = tempDir();
      const { built, events } = watched(dir, "brush");
      const grant = built.mintGrant(grantFor(dir, ["touch", "rm"]));
      for (const name of ["one", "two", "three"]) {
        await built.dispatch("shell", { cmd: `touch ${name}; rm -f nothing-${name}` }, grant);
      }
      await expect(built.dispatch("nope", {}, grant)).rejects.toThrow(/no such tool/);
      // The reports of the workers come when each is reaped; close() waits for them.
      await built.close();
      const ids = [...new Set(events.map((event) => event.callId))];
      expect(ids).toHaveLength(4);
      for (const id of ids.slice(0, 3)) {
        const ofCall = events.filter((event) => event.callId === id).map((event) => event.type);
        expect(ofCall[0]).toBe("dispatch-admitted");
        expect(ofCall).toContain("dispatch-finished");
        // The worker's own spawn, the two programs, and its report: all this call's.
        expect(ofCall.filter((type) => type === "spawn")).toHaveLength(3);
        expect(ofCall.filter((type) => type === "report")).toHaveLength(1);
      }
      const refused = events.filter((event) => event.callId === ids[3]);
      expect(refused).toEqual([
        expect.objectContaining({ type: "dispatch-refused", tool: "nope" }),
      ]);
    },
  );

  it("fs tool events and a refused call's events each carry one id per call", async () => {
    const dir = tempDir();
    const { built, events } = watched(dir, "safe");
    const grant = built.mintGrant(grantFor(dir, []));
    await built.dispatch("read_file", { path: "/etc/shadow" }, grant);
    await built.dispatch("write_file", { path: "a.txt", content: "a" }, grant);
    const typesOf = (id: number) =>
      events.filter((event) => event.callId === id).map((event) => event.type);
    expect([...new Set(events.map((event) => event.callId))]).toEqual([1, 2]);
    expect(typesOf(1)).toEqual(["dispatch-admitted", "check-denied", "dispatch-finished"]);
    expect(typesOf(2)).toEqual(["dispatch-admitted", "dispatch-finished"]);
  });
});

describe.each((onBrushPlatform ? ["brush", "safe", "host"] : ["safe"]) as ShellChoice[])(
  "approval with the %s engine",
  (shell) => {
    it("is never asked for a call refused by its checks; it is asked before anything runs", async () => {
      const dir = tempDir();
      const outside = tempDir();
      const { built, asked } = watched(dir, shell);
      const grant = built.mintGrant(grantFor(dir, ["touch"]));
      // A working directory outside the grant is judged first.
      const badCwd = (await built.dispatch(
        "shell",
        { cmd: "touch marker", cwd: outside },
        grant,
      )) as { denied?: boolean; denials?: { code: string }[] };
      expect(badCwd.denied).toBe(true);
      expect(badCwd.denials?.[0]?.code).not.toBe("APPROVAL_REFUSED");
      // A file tool outside fs_write: refused by its check, never asked.
      const badWrite = (await built.dispatch(
        "write_file",
        { path: join(outside, "x"), content: "x" },
        grant,
      )) as { denied?: boolean };
      expect(badWrite.denied).toBe(true);
      expect(readdirSync(outside)).toEqual([]);
      if (shell === "safe") {
        // The safe-subset engine admits every program before anything runs.
        const badProgram = (await built.dispatch("shell", { cmd: "rm -rf ." }, grant)) as {
          denials?: { code: string }[];
        };
        expect(badProgram.denials?.[0]?.code).toBe("EXEC_NOT_GRANTED");
      }
      expect(asked).toEqual([]);
      // Positive control: a call inside the grant is asked once, before it ran.
      await built.dispatch("shell", { cmd: "touch marker" }, grant);
      expect(asked).toEqual([{ tool: "shell", markerExisted: false }]);
      expect(existsSync(join(dir, "marker"))).toBe(true);
    });

    it("a refusal after the checks runs nothing and is not charged", async () => {
      const dir = tempDir();
      const { built, asked } = watched(dir, shell, false);
      const grant = built.mintGrant({ ...grantFor(dir, ["touch"]), max_calls: { at_most: 1 } });
      const refused = (await built.dispatch("shell", { cmd: "touch marker" }, grant)) as {
        denials?: { code: string }[];
      };
      expect(refused.denials?.[0]?.code).toBe("APPROVAL_REFUSED");
      expect(asked).toHaveLength(1);
      expect(existsSync(join(dir, "marker"))).toBe(false);
      expect(grant.remainingCalls).toBe(1);
    });
  },
);

describe("approval with the fs tools", () => {
  it("is asked after the path checks and before the write; a refused path never asks", async () => {
    const dir = tempDir();
    const { built, asked } = watched(dir, "safe");
    const grant = built.mintGrant(grantFor(dir, []));
    await built.dispatch("read_file", { path: "/etc/shadow" }, grant);
    await built.dispatch(
      "edit_file",
      { path: "absent.txt", edits: [{ old_text: "a", new_text: "b" }] },
      grant,
    );
    expect(asked).toEqual([]);
    await built.dispatch("write_file", { path: "marker", content: "x" }, grant);
    expect(asked).toEqual([{ tool: "write_file", markerExisted: false }]);
    expect(existsSync(join(dir, "marker"))).toBe(true);
  });
});
