import {
  copyFileSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { only } from "../../src/caveats/scope.js";
import { checkExec } from "../../src/exec/check-exec.js";
import { resolveOnSearchPath } from "../../src/exec/resolve-program.js";
import { TRUSTED_PATH } from "../../src/exec/trusted-path.js";

const allowed = async (
  entries: string[],
  spelled: string,
  extra: { resolved?: string; searchPath?: string } = {},
) => {
  const { resolved, searchPath } = extra;
  const decision = await checkExec(
    only(entries),
    { spelled, resolved },
    searchPath ? { searchPath } : {},
  );
  if (!decision.ok)
    expect(decision.denial).toMatchObject({
      kind: "exec",
      code: "EXEC_NOT_GRANTED",
      target: spelled,
    });
  return decision.ok;
};

describe("exec identity on the real system (cases 6–8 as changed by spec §13)", () => {
  it("case 6: only[git] admits git and the trusted-PATH git by absolute path, never ./git or another copy", async () => {
    const git = await resolveOnSearchPath("git");
    expect(git, "git must be installed on the trusted PATH for this test").toBeDefined();
    expect(await allowed(["git"], "git")).toBe(true);
    expect(await allowed(["git"], git as string)).toBe(true);
    expect(await allowed(["git"], "./git")).toBe(false);
    expect(await allowed(["git"], "bin/git")).toBe(false);
    expect(await allowed(["git"], "/opt/homebrew/bin/git")).toBe(false);
  });

  it("case 7: only[/usr/bin/git] admits that file only, not a bare git", async () => {
    expect(await allowed(["/usr/bin/git"], "/usr/bin/git")).toBe(true);
    expect(await allowed(["/usr/bin/git"], "git")).toBe(false);
    expect(await allowed(["/usr/bin/git"], "/opt/homebrew/bin/git")).toBe(false);
  });

  it("case 8: only[echo] admits echo and /bin/echo, denies /bin/rm; exec all admits anything", async () => {
    expect(await allowed(["echo"], "echo")).toBe(true);
    expect(await allowed(["echo"], "/bin/echo")).toBe(true);
    expect(await allowed(["echo"], "/bin/rm")).toBe(false);
    expect((await checkExec("all", { spelled: "/bin/rm" })).ok).toBe(true);
  });

  it("a bare name resolved elsewhere (a caller's PATH) is not the granted program", async () => {
    expect(await allowed(["echo"], "echo", { resolved: "/usr/bin/rm" })).toBe(false);
    expect(await allowed(["echo"], "echo", { resolved: "/usr/bin/echo" })).toBe(true);
  });

  it("the trusted PATH is absolute directories only", () => {
    expect(TRUSTED_PATH.split(":").every((entry) => entry.startsWith("/"))).toBe(true);
  });
});

describe("exec identity with a multi-call binary fixture (one file under two names)", () => {
  let root: string;
  let bin: string;
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), "bridle-exec-"));
    bin = join(root, "bin");
    mkdirSync(bin);
    mkdirSync(join(root, "elsewhere"));
    const multi = join(bin, "multi");
    writeFileSync(multi, "#!/bin/sh\necho multi\n", { mode: 0o755 });
    linkSync(multi, join(bin, "echo"));
    linkSync(multi, join(bin, "rm"));
    symlinkSync("multi", join(bin, "cat"));
    copyFileSync(multi, join(root, "elsewhere", "echo"));
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("only[echo] admits echo and its absolute path, denies the same file spelled rm", async () => {
    const searchPath = bin;
    expect(await allowed(["echo"], "echo", { searchPath })).toBe(true);
    expect(await allowed(["echo"], join(bin, "echo"), { searchPath })).toBe(true);
    expect(await allowed(["echo"], join(bin, "rm"), { searchPath })).toBe(false);
    expect(await allowed(["echo"], join(bin, "multi"), { searchPath })).toBe(false);
    expect(await allowed(["echo"], "rm", { searchPath })).toBe(false);
  });

  it("a copy named echo outside the search path is a different file and is denied", async () => {
    expect(await allowed(["echo"], join(root, "elsewhere", "echo"), { searchPath: bin })).toBe(
      false,
    );
  });

  it("an absolute grant admits another spelling of the same file only when the basename rule is not needed", async () => {
    // Same file as the absolute entry: admitted (both resolved to one inode).
    expect(await allowed([join(bin, "multi")], join(bin, "cat"), { searchPath: bin })).toBe(true);
    expect(await allowed([join(bin, "multi")], "multi", { searchPath: bin })).toBe(false);
  });
});
