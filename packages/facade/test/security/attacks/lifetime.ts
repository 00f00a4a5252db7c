import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import type { Attack } from "../helpers/attack.js";
import { processesWith } from "../helpers/judge.js";

// Catalogue §7–§8 (A93–A100): every call is bounded, nothing it started outlives it, and
// nothing persists. Each sleeper carries a unique number so survivors can be counted.

export const LIFETIME_ATTACKS: readonly Attack[] = [
  {
    id: "A94",
    title: "commands that never end, block, or use too many resources are KILLED",
    exec: ["sleep", "tail", "git", "grep"],
    setup: (f) => writeFileSync(join(f.A, "big.txt"), `${"a".repeat(40)}c\n`),
    steps: () =>
      [
        "sleep 940001",
        "tail -f ok.txt",
        "cat",
        "git commit --allow-empty -m x",
        "grep -E '(a*)*b' big.txt",
        "sleep 940002 | tail -f ok.txt",
      ].map((cmd) => ({ cmd, timeout_secs: 1 })),
    check: (outcomes) => {
      expect(outcomes[0]?.response).toMatchObject({ timed_out: true, exit_code: 124 });
      expect(outcomes[1]?.response).toMatchObject({ timed_out: true });
      expect(outcomes[2]?.response).toMatchObject({ timed_out: false, stdout: "" }); // stdin is /dev/null
      expect(processesWith("940001")).toEqual([]);
      expect(processesWith("940002")).toEqual([]);
    },
  },
  {
    id: "A98",
    title: "double fork, new sessions and background jobs leave no survivor",
    steps: () => [
      { cmd: "setsid -f sleep 980001" },
      { cmd: "setsid -f sleep 980002; echo started", exec: ["setsid", "sleep"], timeout_secs: 3 },
      {
        cmd: `python3 -c 'import os,time; os.fork() or (os.setsid(), os.fork() or time.sleep(980003))'`,
        exec: ["python3"],
        timeout_secs: 3,
      },
      { cmd: "nohup sleep 980004 &", exec: ["nohup", "sleep"], timeout_secs: 2 },
    ],
    check: (outcomes, _f, engine) => {
      // ungranted setsid: refused in-band (safe), exec-denied (bash) or kernel-denied (host)
      const first = outcomes[0]?.response;
      expect(first?.denied === true || (first?.exit_code ?? 0) !== 0).toBe(true);
      expect(outcomes[1]?.response.stdout, engine).toBe("started\n");
      for (const needle of ["980001", "980002", "980003", "980004"]) {
        expect(processesWith(needle), needle).toEqual([]);
      }
    },
  },
  {
    id: "A100",
    title: "persistence through schedulers, services and auto-run files",
    steps: () => [
      { cmd: "echo 'touch $A/PWNED100' | at now + 1 minute" },
      { cmd: "echo '* * * * * touch $A/PWNED100' | crontab -" },
      { cmd: "systemd-run --user touch $A/PWNED100" },
      { cmd: "echo x >> ~/.bashrc" },
    ],
    check: (outcomes, _f, engine) => {
      if (engine === "safe")
        for (const outcome of outcomes) expect(outcome.response.denied).toBe(true);
    },
  },
];
