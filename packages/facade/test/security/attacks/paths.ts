import { spawn, spawnSync } from "node:child_process";
import { closeSync, existsSync, mkdirSync, openSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { expect } from "vitest";
import { type Attack, cmds } from "../helpers/attack.js";
import type { Fixture } from "../helpers/fixture.js";

// Catalogue §1–§2 (filesystem containment) in shell form: every path a script names —
// operands of granted programs, redirections, globs, `cd` — is judged by where it really
// is, so each fs-tool attack is also an attack on a shell engine.

const NOT_ENGINE_HOST_WRITE_BLOCK =
  "spec §6: the agent-configuration write-block list binds spawned programs only when the host opts in; the host engine's bash is a spawned program";

/** Per-fixture resources a setup opened (descriptors, listeners, child processes). */
const HOST_CWD = process.cwd();
const held = new WeakMap<Fixture, { fd?: number; server?: Server; stop?: () => void }>();

export const PATH_ATTACKS: readonly Attack[] = [
  {
    id: "A02",
    title: "plain .. traversal, absolute paths and bare ..",
    setup: (f) => mkdirSync(join(f.A, "sub")),
    steps: () =>
      cmds(
        "cat $A/../outside/secret.txt",
        "cat < $A/sub/../../outside/secret.txt",
        "ls ..",
        "ls $A/..",
        "cat $O/secret.txt",
        "ls -l $O/secret.txt",
      ),
  },
  {
    id: "A04",
    title: "a relative path never resolves against the host process cwd",
    steps: () => [
      { host: (f) => process.chdir(f.O) },
      { cmd: "cat secret.txt", noCwd: true },
      { cmd: "ls .", noCwd: true },
      { cmd: "cat secret.txt" },
      { host: () => process.chdir(HOST_CWD) },
    ],
    check: (outcomes) => {
      // no cwd and no baseDir: refused in-band; with cwd $A the name is simply not there
      expect(outcomes[0]?.response.denied).toBe(true);
      expect(outcomes[1]?.response.denied).toBe(true);
      expect(outcomes[2]?.response.exit_code).not.toBe(0);
    },
  },
  {
    id: "A06",
    title: "a symlinked directory in the middle of the path",
    setup: (f) => symlinkSync(f.O, join(f.A, "dirlink")),
    steps: () =>
      cmds(
        "cat $A/dirlink/secret.txt",
        "ls $A/dirlink",
        "cat < dirlink/secret.txt",
        "echo dirlink/*",
      ),
  },
  {
    id: "A08",
    title: ".. after a symlink, where the physical reading escapes",
    setup: (f) => {
      mkdirSync(join(f.O, "inner"));
      symlinkSync(join(f.O, "inner"), join(f.A, "link"));
      writeFileSync(join(f.A, "secret.txt"), "DECOY-IN");
    },
    steps: () =>
      cmds("cat $A/link/../secret.txt", "cat < $A/link/../secret.txt", "cat link/../secret.txt"),
  },
  {
    id: "A10",
    title: "a dangling symlink, then its target appears",
    setup: (f) => symlinkSync(join(f.O, "notyet.txt"), join(f.A, "dang")),
    steps: () => [
      ...cmds("cat $A/dang", "cat < $A/dang", "ls -l $A/dang"),
      { host: (f) => writeFileSync(join(f.O, "notyet.txt"), "CANARY-OUT") },
      ...cmds("cat $A/dang", "cat < $A/dang"),
    ],
  },
  {
    id: "A12",
    title: "a blocked path wins over every spelling and every allow",
    setup: (f) => {
      mkdirSync(join(f.B, "sub"));
      writeFileSync(join(f.B, "sub", "k.txt"), "CANARY-BLK");
      mkdirSync(join(f.A, "x"));
    },
    grant: (f) => ({ fs_read: { only: [f.A, join(f.B, "sub")] } }),
    steps: () =>
      cmds(
        "cat $B/key.txt",
        "cat $A/./blocked/key.txt",
        "cat $A//blocked/key.txt",
        "cat $A/x/../blocked/key.txt",
        "cat $B/sub/k.txt",
        "cat < $B/key.txt",
        "ls $B/",
        "ls -l $B",
      ),
  },
  {
    id: "A14",
    title: "blocked names match without regard to case",
    setup: (f) => {
      mkdirSync(join(f.A, "private"));
      writeFileSync(join(f.A, "private", "key.txt"), "CANARY-BLK");
    },
    blocked: (f) => [join(f.A, "Private")],
    steps: () => cmds("cat $A/private/key.txt", "cat $A/PRIVATE/key.txt", "cat < private/key.txt"),
  },
  {
    id: "A16",
    title: "the allowed root is itself reached through a symlink",
    setup: (f) => {
      const real = join(f.WS, "real");
      mkdirSync(join(real, "blocked"), { recursive: true });
      writeFileSync(join(real, "ok.txt"), "OK");
      writeFileSync(join(real, "blocked", "key.txt"), "CANARY-BLK");
      symlinkSync(real, join(f.WS, "alias"));
    },
    grant: (f) => ({
      fs_read: { only: [join(f.WS, "alias")] },
      fs_write: { only: [join(f.WS, "alias")] },
    }),
    blocked: (f) => [join(f.WS, "alias", "blocked")],
    steps: () => [
      { cmd: "cat $WS/alias/ok.txt", cwd: "$WS/alias" },
      { cmd: "cat $WS/real/ok.txt", cwd: "$WS/alias" },
      { cmd: "cat $WS/real/blocked/key.txt", cwd: "$WS/alias" },
      { cmd: "cat $WS/alias/blocked/key.txt", cwd: "$WS/alias" },
    ],
    check: (outcomes) => {
      // the usability control: both spellings of the allowed ok.txt are read
      expect(outcomes[0]?.response.stdout).toBe("OK");
      expect(outcomes[1]?.response.stdout).toBe("OK");
    },
  },
  {
    id: "A20",
    title: "a parent directory swapped for a symlink in a tight loop",
    setup: (f) => {
      mkdirSync(join(f.A, "sub"));
      writeFileSync(join(f.A, "sub", "secret.txt"), "DECOY-IN");
      symlinkSync(f.O, join(f.A, "swap-link"));
      // a separate process swaps $A/sub between the directory and a link to $O
      const child = spawn(
        process.execPath,
        [
          "-e",
          `const fs=require("fs");const d=${JSON.stringify(join(f.A, "sub"))};const r=d+"-real";const l=${JSON.stringify(join(f.A, "swap-link"))};for(;;){try{fs.renameSync(d,r);fs.renameSync(l,d);fs.renameSync(d,l);fs.renameSync(r,d);}catch{}}`,
        ],
        { stdio: "ignore" },
      );
      held.set(f, { stop: () => child.kill("SIGKILL") });
    },
    teardown: (f) => held.get(f)?.stop?.(),
    steps: (_f, engine) =>
      engine === "safe"
        ? [
            { cmd: `cat ${Array.from({ length: 200 }, () => "sub/secret.txt").join(" ")}` },
            ...cmds("cat < sub/secret.txt", "cat < sub/secret.txt", "cat < sub/secret.txt"),
          ]
        : cmds(
            "for i in {1..300}; do cat sub/secret.txt; done 2>/dev/null",
            "for i in {1..300}; do cat < sub/secret.txt; done 2>/dev/null",
          ),
  },
  {
    id: "A22",
    title: "the host's own descriptors: /proc/self/fd/N, /dev/fd/N, /proc/<host>/fd/N, /dev/stdin",
    setup: (f) => {
      const fd = openSync(join(f.O, "secret.txt"), "r");
      held.set(f, { fd });
      symlinkSync(`/dev/fd/${fd}`, join(f.A, "fdlink"));
    },
    teardown: (f) => {
      const fd = held.get(f)?.fd;
      if (fd !== undefined) closeSync(fd);
    },
    hostEnv: () => ({ LEASH_TEST_SECRET: "CANARY-ENV" }),
    steps: (f) => {
      const fd = held.get(f)?.fd ?? -1;
      return [
        ...cmds(
          `cat /dev/fd/${fd}`,
          `cat /proc/self/fd/${fd}`,
          `cat /proc/${process.pid}/fd/${fd}`,
          `cat < /dev/fd/${fd}`,
          `cat < /proc/${process.pid}/fd/${fd}`,
          "cat $A/fdlink",
          `cat /proc/${process.pid}/environ`,
        ),
        { cmd: "cat /dev/stdin", timeout_secs: 3 },
      ];
    },
    check: (outcomes) => {
      // /dev/stdin never blocks: it is /dev/null (EOF) or refused, never the host's stdin
      expect(outcomes.at(-1)?.response.timed_out ?? false).toBe(false);
    },
  },
  {
    id: "A24",
    title: "NUL and control characters in a path",
    steps: () => [
      ...cmds(
        "cat $'$A/ok.txt\\x00/../../outside/secret.txt'",
        'cat "$A/ok.txt\0/../../outside/secret.txt"',
        'cat "$A/ok\x01.txt"',
        'ls "$A\0"',
      ),
    ],
  },
  {
    id: "A26",
    title: "files that are not regular: FIFO, socket, /dev/zero, /dev/tty",
    setup: async (f) => {
      spawnSync("mkfifo", [join(f.A, "pipe")]);
      symlinkSync("/dev/zero", join(f.A, "zero"));
      symlinkSync("/dev/tty", join(f.A, "tty"));
      const server = createServer();
      await new Promise<void>((resolve) => server.listen(join(f.A, "sock"), resolve));
      held.set(f, { server });
    },
    teardown: (f) => {
      held.get(f)?.server?.close();
    },
    steps: () =>
      [
        "cat $A/pipe",
        "cat < $A/pipe",
        "cat $A/zero",
        "cat < $A/zero",
        "cat $A/tty",
        "cat $A/sock",
      ].map((cmd) => ({ cmd, timeout_secs: 1 })),
    check: (outcomes) => {
      // nothing hangs past the call's own bound; a blocked reader is KILLED at the timeout
      for (const { response } of outcomes) {
        expect(String(response.stdout ?? "").length).toBeLessThanOrEqual(1 << 20);
      }
    },
  },
  {
    id: "A34",
    title: "writing through a dangling symlink leaf",
    setup: (f) => symlinkSync(join(f.O, "created.txt"), join(f.A, "w")),
    steps: () => cmds("echo X > $A/w", "cat ok.txt > w", "echo X >> w"),
  },
  {
    id: "A36",
    title: "writing the agent's own control files",
    notApplicable: { host: NOT_ENGINE_HOST_WRITE_BLOCK },
    setup: (f) => {
      for (const dir of [".git/hooks", ".vscode", ".claude", ".Cursor"]) {
        mkdirSync(join(f.A, dir), { recursive: true });
      }
    },
    steps: () =>
      cmds(
        "echo x > .git/hooks/pre-commit",
        "echo x > $A/.vscode/settings.json",
        "echo x > .claude/settings.json",
        "echo x > .Cursor/MCP.json",
        "echo x > .mcp.json",
        "echo x >> .bashrc",
      ),
    check: (outcomes, f) => {
      for (const outcome of outcomes) expect(outcome.response.denied, outcome.call.cmd).toBe(true);
      for (const name of [
        ".git/hooks/pre-commit",
        ".vscode/settings.json",
        ".claude/settings.json",
        ".Cursor/MCP.json",
        ".mcp.json",
        ".bashrc",
      ]) {
        expect(existsSync(join(f.A, name)), name).toBe(false);
      }
    },
  },
];
