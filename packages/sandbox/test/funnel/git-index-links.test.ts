import { spawnSync } from "node:child_process";
import { readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { gitlinksIn, gitlinksOf, indexStamp } from "../../src/backend/git-index-links.js";
import { useTempDir } from "./helpers/funnel-context.js";

// The gitlinks of a real index git wrote, in each index version git writes (ADR 0031): the
// planted-configuration sweep checks the `.git` files at exactly these paths.
const tempDir = useTempDir();

function repositoryWithLinks(): string {
  const repo = realpathSync(tempDir());
  const git = (...args: string[]) => spawnSync("git", ["-C", repo, ...args], { encoding: "utf8" });
  git("init", "-q");
  writeFileSync(join(repo, "a"), "a\n");
  git("add", "a");
  git("-c", "user.email=u@e", "-c", "user.name=u", "commit", "-qm", "a");
  const head = git("rev-parse", "HEAD").stdout.trim();
  for (const path of ["lib/deep/sub", "other"])
    git("update-index", "--add", "--cacheinfo", `160000,${head},${path}`);
  return repo;
}

describe.skipIf(spawnSync("git", ["--version"]).status !== 0)("gitlinksIn", () => {
  it.each([2, 3, 4])("reads the gitlinks of an index of version %i", (version) => {
    const repo = repositoryWithLinks();
    const git = (...args: string[]) => spawnSync("git", ["-C", repo, ...args]);
    git("update-index", "--index-version", String(version));
    if (version === 3) git("update-index", "--skip-worktree", "a"); // an extended entry
    const index = readFileSync(join(repo, ".git", "index"));
    expect(index.readUInt32BE(4)).toBe(version);
    expect(gitlinksIn(index, 20)).toEqual(["lib/deep/sub", "other"]);
  });

  it("reads none from what is not an index", () => {
    expect(gitlinksIn(Buffer.from("not an index at all"), 20)).toEqual([]);
    expect(gitlinksIn(Buffer.alloc(0), 20)).toEqual([]);
  });

  it("parses an index once per state, and again when it changes", async () => {
    const repo = repositoryWithLinks();
    const gitDir = join(repo, ".git");
    const first = await indexStamp(join(gitDir, "index"));
    expect(await gitlinksOf(gitDir, first)).toEqual(["lib/deep/sub", "other"]);
    spawnSync("git", ["-C", repo, "rm", "-q", "--cached", "other"]);
    const second = await indexStamp(join(gitDir, "index"));
    expect(second).not.toBe(first);
    expect(await gitlinksOf(gitDir, second)).toEqual(["lib/deep/sub"]);
    expect(await gitlinksOf(join(repo, "missing"), "")).toEqual([]);
  });
});
