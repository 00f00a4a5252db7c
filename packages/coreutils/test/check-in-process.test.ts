import { describe, expect, it } from "vitest";
import { checkInProcess } from "../src/index.js";

// Issue 15, point 4: what the in-process utilities carry is decided from the arguments
// alone, with each utility's own parser, before anything is read or written.

describe("checkInProcess", () => {
  it.each([
    ["ls", ["--color=auto"], "--color"],
    ["ls", ["-la", "-i", "dir"], "-i"],
    ["ls", ["--help"], "--help"],
    ["ls", ["--vers"], "--version"],
    ["sort", ["-z"], "-z"],
    ["sort", ["-R", "file"], "-R"],
    ["sort", ["-k", "1M"], "-k ...M"],
    ["wc", ["--version"], "--version"],
    ["wc", ["--files0-from=list"], "--files0-from"],
    ["head", ["-z", "-n1"], "-z"],
    ["head", ["-5z"], "-z"],
    ["cat", ["--help"], "--help"],
    // GNU acts on --help as its getopt loop reads it, before a later invalid option.
    ["ls", ["--help", "-y"], "--help"],
    ["sort", ["--version", "--nosuch"], "--version"],
  ])("%s %j is handed on (%s)", (name, argv, spelling) => {
    expect(checkInProcess(name, argv)).toEqual({ ok: false, spelling });
  });

  it.each([
    ["ls", ["-la", "dir"]],
    ["ls", ["-y"]],
    ["ls", ["-y", "--help"]],
    ["sort", ["-rn", "-k2,2", "-t:", "file"]],
    ["sort", ["-k", "0"]],
    ["wc", ["-l"]],
    ["head", ["-n", "-3"]],
    ["head", ["-n", "x"]],
    ["cat", ["-A", "-"]],
    ["echo", ["--help"]],
  ])("%s %j runs in-process (GNU's own text for a usage error)", (name, argv) => {
    expect(checkInProcess(name, argv)).toEqual({ ok: true });
  });
});
