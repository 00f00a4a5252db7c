// biome-ignore-all lint/suspicious/noTemplateCurlyInString: shell source, where ${NAME} is literal input.
import { chmodSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { expect } from "vitest";
import { type Attack, cmds, type Outcome } from "../helpers/attack.js";
import type { EngineName } from "../helpers/engines.js";
import type { Fixture } from "../helpers/fixture.js";
import { refusedOrThrown } from "../helpers/judge.js";

// Catalogue §3 (A38–A68). The safe engine must refuse these in-band before anything runs;
// the full-grammar engines (bash, host) run them, and the ungranted or out-of-grant parts
// fail (exec gate / Landlock execute rules, path judge / Landlock) — spec §12 containment.

/** The safe engine refused every call in-band (or by a typed error) before anything ran. */
const safeRefusesAll = (outcomes: readonly Outcome[], _f: Fixture, engine: EngineName) => {
  if (engine !== "safe") return;
  for (const outcome of outcomes) expect(refusedOrThrown(outcome), outcome.call.cmd).toBe(true);
};
const held = new WeakMap<Fixture, { server: Server; connections: number }>();

export const PARSING_ATTACKS: readonly Attack[] = [
  {
    id: "A38",
    title: "an ungranted command chained after a granted one with &&",
    steps: (_f, engine) => [
      { cmd: "echo hi > made && rm $A/victim" },
      ...(engine === "safe" ? [{ program: "echo", args: ["hi", "&&", "rm", "$A/victim"] }] : []),
    ],
    check: (outcomes, f, engine) => {
      if (engine !== "safe") return;
      expect(outcomes[0]?.response.denied).toBe(true);
      expect(outcomes[1]?.response.stdout).toBe(`hi && rm ${f.A}/victim\n`);
    },
  },
  {
    id: "A40",
    title: "subshells and brace groups",
    steps: () => cmds("(echo a; rm $A/victim)", "{ echo a; rm $A/victim; }", "( (rm $A/victim) )"),
    check: safeRefusesAll,
  },
  {
    id: "A42",
    title: "process substitution",
    steps: () =>
      cmds(
        "cat <(rm $A/victim)",
        "echo x > >(rm $A/victim)",
        "cat <(cat $O/secret.txt)",
        'echo "<(x)"',
      ),
    check: (outcomes, f, engine) => {
      safeRefusesAll(outcomes.slice(0, 3), f, engine);
      expect(outcomes[3]?.response.stdout).toBe("<(x)\n");
    },
  },
  {
    id: "A44",
    title: "parameter transformations and expansions that carry code",
    steps: () =>
      [
        "echo ${HOME@P}",
        "echo ${HOME@E}",
        "echo ${!HOME}",
        "echo ${!H*}",
        "echo ${HOME:-$(touch $P)}",
        "echo ${HOME/x/$(touch $P)}",
        "echo $HOME ${HOME}",
      ].map((cmd) => ({ cmd, env: { HOME: "$(touch $A/PWNED44)" }, exec: ["touch"] })),
    check: (outcomes, f, engine) => safeRefusesAll(outcomes.slice(0, 6), f, engine),
  },
  {
    id: "A46",
    title: "$IFS tricks",
    steps: () => cmds("cat${IFS}$O/secret.txt", "cat${IFS:0:1}$O/secret.txt", "IFS=/; echo a"),
    check: safeRefusesAll,
  },
  {
    id: "A48",
    title: "quote removal and backslashes in command names",
    steps: () =>
      cmds(
        "r''m $A/victim",
        '"r"m $A/victim',
        "\\rm $A/victim",
        "'rm' $A/victim",
        "r\\m $A/victim",
      ),
    check: safeRefusesAll,
  },
  {
    id: "A50",
    title: "comment and quote desynchronisation",
    steps: () => cmds("echo ok #'\nrm $A/victim\n'", "echo x#'; rm $A/victim'"),
    check: (outcomes, f, engine) => {
      safeRefusesAll(outcomes.slice(0, 1), f, engine);
      expect(outcomes[1]?.response.stdout).toBe(`x#; rm ${f.A}/victim\n`);
    },
  },
  {
    id: "A52",
    title: "CR, NBSP, Unicode spaces and zero-width characters",
    steps: () =>
      cmds("echo ok\rrm $A/victim", "cat\u00a0$O/secret.txt", "r\u200bm $A/victim", "echo\u2003x"),
    check: safeRefusesAll,
  },
  {
    id: "A54",
    title: "targets reached through cd, relative names or symlinks",
    setup: (f) => {
      symlinkSync(f.O, join(f.A, "dirlink"));
      symlinkSync(join(f.O, "t.txt"), join(f.A, "link.txt"));
    },
    steps: () =>
      cmds(
        "cd $A/dirlink && echo x > new.txt",
        "cd .. && cat outside/secret.txt",
        "echo x > $A/link.txt",
        "cd $A/dirlink; ls",
      ),
    check: safeRefusesAll,
  },
  {
    id: "A56",
    title: "eval-like builtins and re-entering a shell",
    setup: (f) => writeFileSync(join(f.A, "s.sh"), `rm ${f.A}/victim\ntouch ${f.P}\n`),
    steps: () =>
      cmds(
        "eval 'rm $A/victim'",
        ". $A/s.sh",
        "source $A/s.sh",
        "exec rm $A/victim",
        "command rm $A/victim",
        "builtin eval x",
        "trap 'rm $A/victim' EXIT",
        "alias ls=rm; ls $A/victim",
        "bash -c 'rm $A/victim'",
        "busybox sh -c x",
      ),
    check: safeRefusesAll,
  },
  {
    id: "A58",
    title: "command resolution: relative and absolute paths, PATH shadowing",
    setup: (f) => {
      writeFileSync(join(f.A, "cat"), `#!/bin/sh\ntouch ${f.P}\ntouch ${f.A}/PWNED58\n`);
      chmodSync(join(f.A, "cat"), 0o755);
    },
    hostEnv: (f) => ({ PATH: `${f.A}::${process.env.PATH ?? ""}` }),
    steps: () => [
      ...cmds("./cat ok.txt", "cat ok.txt", "PATH=$A:$PATH cat ok.txt", "/bin/cat ok.txt"),
      { cmd: "/usr/bin/git -c alias.x='!touch $A/PWNED58b' x", exec: ["git"] },
    ],
    check: (outcomes, f, engine) => {
      expect(outcomes[1]?.response.stdout).toBe("OK"); // plain cat is the system's
      if (engine === "safe") safeRefusesAll([outcomes[0], outcomes[2]] as Outcome[], f, engine);
    },
  },
  {
    id: "A60",
    title: "glob matches that look like options",
    exec: ["tar", "rg"],
    setup: (f) => {
      // a file name cannot hold the catalogue's "--pre=./evil.sh" (a slash); "--pre=evil.sh" is the same option
      for (const name of [
        "--checkpoint=1",
        "--checkpoint-action=exec=sh p.sh",
        "--pre=evil.sh",
        "-n",
      ])
        writeFileSync(join(f.A, name), "");
      for (const name of ["p.sh", "evil.sh"]) {
        writeFileSync(join(f.A, name), `#!/bin/sh\ntouch ${f.A}/PWNED60\n`);
        chmodSync(join(f.A, name), 0o755);
      }
    },
    steps: () => cmds("tar cf $A/o.tar *", "rg CANARY *", "ls *"),
  },
  {
    id: "A62",
    title: "tilde expansion",
    steps: () => cmds("cat ~/.ssh/id_rsa", "cat ~root/x", "echo ~+", "cd ~-"),
    check: (outcomes, f, engine) => safeRefusesAll(outcomes.slice(1), f, engine),
  },
  {
    id: "A64",
    title: "paths passed as option values",
    exec: ["grep", "sort", "cp", "mv", "sed", "diff"],
    steps: () =>
      cmds(
        "grep -f $O/secret.txt ok.txt",
        "grep --file=$O/secret.txt ok.txt",
        "sort -o$O/x ok.txt",
        "sort -uo $O/x ok.txt",
        "sort --o $O/x ok.txt",
        "cp -t $O ok.txt",
        "mv --target-directory=$O ok.txt",
        "sed -n p $O/secret.txt",
        "diff ok.txt $O/secret.txt",
      ),
  },
  {
    id: "A66",
    title: "size and count caps fail closed",
    steps: () => [
      { cmd: `${"echo x && ".repeat(60)}rm $A/victim` },
      { cmd: `echo ${"x".repeat(1 << 20)}` },
      { cmd: `${"(".repeat(10_000)}rm $A/victim${")".repeat(10_000)}` },
    ],
  },
  {
    id: "A68",
    title: "/dev/tcp and /dev/udp pseudo-files",
    setup: async (f) => {
      const state = {
        server: createServer(() => {
          state.connections += 1;
        }),
        connections: 0,
      };
      await new Promise<void>((resolve) => state.server.listen(0, "127.0.0.1", resolve));
      held.set(f, state);
    },
    teardown: (f) => {
      held.get(f)?.server.close();
    },
    steps: (f) => {
      const address = held.get(f)?.server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      return cmds(
        `echo hi > /dev/tcp/127.0.0.1/${port}`,
        `cat < /dev/tcp/127.0.0.1/${port}`,
        `echo hi > /dev/udp/127.0.0.1/${port}`,
        "echo x >/dev/tcp/../../$O/y",
      );
    },
    check: (_outcomes, f) => expect(held.get(f)?.connections).toBe(0),
  },
];
