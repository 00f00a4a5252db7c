import { lstatSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { only } from "@agent-bridle/core";
import { useTempDirs } from "@agent-bridle-tools/test-kit";
import { describe, expect, it } from "vitest";
import { runJudged } from "./judged-gate.js";

// Issue 14, point 4: files whose content sends git to another directory it will later
// run code from (`.git/commondir`, a `.git` file, …) are judged by the write-block list
// when the interpreter writes them itself, as `.git/config` and hooks are.

const tempDir = useTempDirs("brush-git-blocked-");

/** Each file, relative to the grant, with the content it starts with. */
const INDIRECTIONS: Readonly<Record<string, string>> = {
  "repo/.git/config": "[core]\n\tbare = false\n",
  "repo/.git/config.worktree": "[core]\n",
  "repo/.git/commondir": "..\n",
  "repo/.git/hooks/pre-commit": "#!/bin/sh\nexit 0\n",
  "repo/.git/info/attributes": "*.bin binary\n",
  "repo/.git/info/exclude": "# excludes\n",
  "repo/.git/objects/info/alternates": "",
  "repo/.git/worktrees/feature/commondir": "../..\n",
  "repo/.git/worktrees/feature/gitdir": "/elsewhere/feature/.git\n",
  "repo/.git/worktrees/feature/config.worktree": "[core]\n",
  "repo/.git/modules/lib/config": "[core]\n",
  "repo/.git/modules/lib/commondir": "..\n",
  "feature/.git": "gitdir: ../repo/.git/worktrees/feature\n",
};

/** How the interpreter writes on its own: redirections, `exec`, the carried `sort -o`. */
const WRITERS = [
  "echo planted > T",
  "echo planted >> T",
  "echo planted >| T",
  "echo planted 1<> T",
  "echo planted &> T",
  "exec 3> T; echo planted >&3",
  "exec 4>> T",
  "printf 'gitdir: /tmp/evil\\n' > T",
  "echo planted | sort -o T",
];

function repository() {
  const grant = tempDir();
  for (const [relative, content] of Object.entries(INDIRECTIONS)) {
    const file = join(grant, relative);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, content, { mode: relative.includes("hooks") ? 0o755 : 0o644 });
  }
  writeFileSync(join(grant, "feature", "src.txt"), "source\n");
  return grant;
}

function snapshot(grant: string) {
  return Object.keys(INDIRECTIONS).map((relative) => {
    const file = join(grant, relative);
    const info = lstatSync(file, { bigint: true });
    return { relative, content: readFileSync(file, "utf8"), mode: info.mode, mtime: info.mtimeNs };
  });
}

const grantOf = (grant: string) => ({ fs_read: only([grant]), fs_write: only([grant]) });

describe("the bash interpreter's own writes to git's indirection files", () => {
  it.each(WRITERS)("refuses `%s` for every indirection file and changes none", async (writer) => {
    const grant = repository();
    const before = snapshot(grant);
    for (const relative of Object.keys(INDIRECTIONS)) {
      const result = await runJudged(`${writer.replaceAll("T", relative)}; echo $?`, grant, {
        ...grantOf(grant),
      });
      expect(result.stderr, relative).toContain("Permission denied");
      expect(result.denials.length, relative).toBeGreaterThan(0);
      for (const denial of result.denials) expect(denial.code, relative).toBe("FS_BLOCKED");
    }
    expect(snapshot(grant)).toEqual(before);
  });

  it("refuses the write through a link to each indirection file (an `ln -s` the script ran)", async () => {
    const grant = repository();
    const before = snapshot(grant);
    for (const [index, relative] of Object.keys(INDIRECTIONS).entries()) {
      symlinkSync(join(grant, relative), join(grant, `alias-${index}`));
      const result = await runJudged(`echo planted >> alias-${index}; echo $?`, grant, {
        ...grantOf(grant),
      });
      expect(result.stdout, relative).toBe("1\n");
      expect(result.denials.map((denial) => denial.code)).toEqual(["FS_BLOCKED"]);
    }
    const linked = await runJudged(
      "ln -s repo/.git/commondir made-by-ln && echo planted > made-by-ln; echo $?",
      grant,
      grantOf(grant),
    );
    expect(linked.stdout).toBe("1\n");
    expect(linked.denials.map((denial) => denial.code)).toEqual(["FS_BLOCKED"]);
    expect(snapshot(grant)).toEqual(before);
  });

  it("refuses creating a new `.git` file, in any spelling", async () => {
    const grant = repository();
    mkdirSync(join(grant, "fresh"));
    const result = await runJudged(
      "echo 'gitdir: /tmp/evil' > fresh/.git; echo $?; echo x > fresh/.GIT; echo $?",
      grant,
      grantOf(grant),
    );
    expect(result.stdout).toBe("1\n1\n");
    expect(result.denials.map((denial) => denial.code)).toEqual(["FS_BLOCKED", "FS_BLOCKED"]);
    expect(() => lstatSync(join(grant, "fresh", ".git"))).toThrow();
  });

  it("positive control: ordinary files beside them are written", async () => {
    const grant = repository();
    const result = await runJudged(
      [
        "echo message > repo/.git/COMMIT_EDITMSG",
        "echo more >> feature/src.txt",
        "echo notes > repo/notes.txt",
        "echo b a | tr ' ' '\\n' | sort -o repo/sorted.txt",
        "cat repo/.git/COMMIT_EDITMSG feature/src.txt repo/notes.txt repo/sorted.txt",
      ].join("; "),
      grant,
      grantOf(grant),
    );
    expect(result.denials).toEqual([]);
    expect(result.stdout).toBe("message\nsource\nmore\nnotes\na\nb\n");
    // Reading the indirection files stays allowed.
    const read = await runJudged("cat repo/.git/commondir feature/.git", grant, grantOf(grant));
    expect(read.stdout).toBe("..\ngitdir: ../repo/.git/worktrees/feature\n");
  });
});
