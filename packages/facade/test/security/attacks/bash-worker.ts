// biome-ignore-all lint/suspicious/noTemplateCurlyInString: shell source, where ${NAME} is literal input.
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { workerFilePath } from "@agent-bridle/shell-brush";
import { expect } from "vitest";
import { type Attack, cmds } from "../helpers/attack.js";
import type { EngineName } from "../helpers/engines.js";
import { processesWith } from "../helpers/judge.js";

// The bash interpreter's own surface (spec §9; catalogue §6 and §8 as they bear on the
// bash worker): the worker itself, descriptor paths, `exec`, PS4, BASH_ENV, traps and
// background jobs. Granted `touch` writes markers inside $A, so a marker proves code ran.

const ONLY_BASH = {
  safe: "the safe subset refuses these constructs in-band (A56, A90 rows cover the refusal)",
  host: "host bash is real bash: a granted program may do its normal job (spec §12); the kernel bounds the rest (covered by A56, A90, A98 rows)",
} satisfies Partial<Record<EngineName, string>>;

export const BASH_WORKER_ATTACKS: readonly Attack[] = [
  {
    id: "A90",
    title: "a hand-run bash worker exits 126 before running anything",
    notApplicable: ONLY_BASH,
    steps: () => [
      {
        host: (f) => {
          const run = spawnSync(
            process.execPath,
            [workerFilePath(), "--agent-bridle-worker", "brush"],
            {
              stdio: ["pipe", "pipe", "pipe"],
              input: `touch ${f.A}/PWNED-handrun\n`,
              env: { AGENT_BRIDLE_WORKER_NONCE: "a".repeat(64) },
              timeout: 10_000,
            },
          );
          expect(run.status).toBe(126);
          expect(run.stdout.length).toBe(0);
        },
      },
    ],
  },
  {
    id: "A90",
    title:
      "/dev/fd and /proc/self/fd paths the script names are refused; process substitution works",
    notApplicable: ONLY_BASH,
    steps: () =>
      cmds(
        "exec 3<$A/ok.txt; cat /dev/fd/3",
        "exec 3<$A/ok.txt; cat < /proc/self/fd/3",
        "cat <(echo substituted)",
        "echo logical > /dev/stdout",
      ),
    check: (outcomes) => {
      expect(outcomes[0]?.response.denied).toBe(true);
      expect(outcomes[1]?.response.denied).toBe(true);
      expect(outcomes[2]?.response.stdout).toBe("substituted\n");
      expect(outcomes[3]?.response.stdout).toBe("logical\n");
    },
  },
  {
    id: "A56",
    title: "exec runs its command through the spawn gate and ends the script",
    notApplicable: ONLY_BASH,
    exec: ["touch"],
    steps: () =>
      cmds(
        "exec rm $A/victim; touch $A/PWNED-after-exec",
        "exec cat $O/secret.txt",
        "exec touch $A/made; echo after",
      ),
    check: (outcomes) => {
      expect(outcomes[0]?.response.exit_code).toBe(126);
      expect(outcomes[2]?.response.stdout).toBe("");
    },
  },
  {
    id: "A44",
    title: "PS4 is a literal: set -x never expands it",
    notApplicable: ONLY_BASH,
    exec: ["touch"],
    steps: () =>
      cmds(
        "PS4='$(touch $A/PWNED-ps4)'; set -x; echo hi",
        "PS4='${x:=$(touch $A/PWNED-ps4b)}' bash -c 'set -x; :'",
      ),
  },
  {
    id: "A86",
    title: "BASH_ENV and ENV never reach a child bash",
    notApplicable: ONLY_BASH,
    exec: ["bash", "sh", "touch"],
    setup: (f) => writeFileSync(join(f.A, "rc.sh"), `touch ${f.A}/PWNED-bashenv\n`),
    steps: () =>
      cmds(
        "BASH_ENV=$A/rc.sh bash -c 'echo hi'",
        "export BASH_ENV=$A/rc.sh; bash -c 'echo hi'",
        "ENV=$A/rc.sh sh -i -c 'echo hi' </dev/null",
      ),
  },
  {
    id: "A90",
    title: "enable -f (a dlopen) is always refused",
    notApplicable: ONLY_BASH,
    setup: (f) => writeFileSync(join(f.A, "x.so"), ""),
    steps: () => cmds("enable -f $A/x.so evil; echo status=$?"),
    check: (outcomes) => expect(outcomes[0]?.response.stdout).not.toBe("status=0\n"),
  },
  {
    id: "A56",
    title: "traps run their commands through the same gates",
    notApplicable: ONLY_BASH,
    steps: () =>
      cmds(
        "trap 'rm $A/victim; cat $O/secret.txt' EXIT; echo t",
        "trap 'rm $A/victim' ERR; false",
        "set -T; trap 'cat $O/secret.txt' DEBUG; echo d",
      ),
  },
  {
    id: "A98",
    title: "a background job does not outlive the call",
    notApplicable: ONLY_BASH,
    exec: ["sleep", "setsid"],
    steps: () => [{ cmd: "sleep 981001 & echo bg", timeout_secs: 2 }],
    check: (outcomes) => {
      expect(processesWith("981001")).toEqual([]);
      expect(outcomes[0]?.response).toMatchObject({ timed_out: false, stdout: "bg\n" });
    },
  },
  {
    id: "A98",
    title: "background jobs and setsid under the launcher leave no survivor (held part)",
    notApplicable: ONLY_BASH,
    exec: ["sleep", "setsid"],
    steps: () => [
      { cmd: "sleep 981002 & (sleep 981003 &) ; setsid sleep 981004 & echo bg", timeout_secs: 2 },
      { cmd: "setsid -f sleep 981005; disown -a; echo ok", timeout_secs: 2 },
    ],
    check: () => {
      for (const needle of ["981002", "981003", "981004", "981005"]) {
        expect(processesWith(needle), needle).toEqual([]);
      }
    },
  },
];
