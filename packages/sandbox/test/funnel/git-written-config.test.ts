import { describe, expect, it } from "vitest";
import { gitWrittenConfig } from "../../src/backend/planted-repositories.js";

// What git itself writes in a submodule's or worktree's config passes; anything a program
// could use to run code at the user's next git command does not (ADR 0031).
describe("gitWrittenConfig", () => {
  it("accepts the config git writes when it clones a submodule", () => {
    const written = [
      "[core]",
      "\trepositoryformatversion = 0",
      "\tfilemode = true",
      "\tbare = false",
      "\tlogallrefupdates = true",
      "\tworktree = ../../../lib",
      '[remote "origin"]',
      "\turl = https://example.com/lib.git",
      "\tfetch = +refs/heads/*:refs/remotes/origin/*",
      '[branch "main"]',
      "\tremote = origin",
      "\tmerge = refs/heads/main",
      "",
    ].join("\n");
    expect(gitWrittenConfig(written)).toBe(true);
    expect(gitWrittenConfig("# a comment\n; another\n\n")).toBe(true);
  });

  it.each([
    ["an fsmonitor", '[core]\n\tfsmonitor = "touch x"\n'],
    ["a hooks path", "[core]\n\thooksPath = /tmp/h\n"],
    ["a pager", "[core]\n\tpager = sh -c x\n"],
    ["an include", "[include]\n\tpath = /tmp/evil\n"],
    ["a conditional include", '[includeIf "gitdir:/"]\n\tpath = /tmp/evil\n'],
    ["an alias", "[alias]\n\tst = !touch x\n"],
    ["a filter driver", '[filter "x"]\n\tclean = touch x\n'],
    ["a continued value", "[core]\n\tworktree = a\\\n\tfsmonitor = x\n"],
    ["a key before any section", "fsmonitor = x\n"],
    ["a line git does not parse as config", "[core]\n\t=x\n"],
  ])("refuses %s", (_name, text) => {
    expect(gitWrittenConfig(text)).toBe(false);
  });
});
