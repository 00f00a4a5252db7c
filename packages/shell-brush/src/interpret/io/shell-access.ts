/**
 * The interpreter's one door to the filesystem and to programs (the interceptor's L2
 * hook points, spec §9). The interpreter never touches a path or starts a command
 * without asking this first; the bash worker supplies a judge-backed implementation,
 * tests and the conformance runner a pass-through one.
 *
 * It extends the coreutils `GatedOpener`, so the same gate serves the in-process
 * utilities' operands. Paths are absolute (resolved against the shell's `cwd`).
 * A refusal is either a policy `denial` (the interpreter prints bash's
 * permission-denied text for opens, `<name>: execution denied: <reason>` with status
 * 126 for commands) or a system `errno` such as `ENOENT` (printed as bash does).
 */
import type { BigIntStats } from "node:fs";
import type { FileHandle } from "node:fs/promises";
import type { GatedOpener, GateOutcome } from "@agent-bridle/core";

/** How a redirection opens its target. */
export interface RedirectOpenMode {
  /** `>>`: append, create if missing. */
  readonly append?: boolean | undefined;
  /** `>` under `set -C` (noclobber): refuse an existing regular file. */
  readonly exclusive?: boolean | undefined;
  /** `<>`: read and write, create if missing. */
  readonly readWrite?: boolean | undefined;
}

export interface ShellAccess extends GatedOpener {
  /**
   * Before every command that is not a builtin or function: external programs with the
   * spelling as written and the resolved absolute path; in-process utilities under
   * their logical name (`resolved` is the name too). Allowed: `{ ok: true }`. `argv` is
   * the command's words, so a refusal reaches the host's audit hook with them.
   */
  checkExec(
    spelled: string,
    resolved: string,
    argv?: readonly string[],
  ): Promise<GateOutcome<void>>;
  /**
   * The metadata of a program candidate while a command is resolved (each `PATH` entry
   * tried, or a path the script spelled as the command). Not a file probe of the script's:
   * what runs is judged by `checkExec`, so a host may answer here for a program it would
   * let run even where `fs_read` would refuse a `stat` (bash under Landlock finds
   * `/usr/bin/git` whatever `fs_read` says).
   */
  statProgram(path: string): Promise<GateOutcome<BigIntStats>>;
  /** Opens the target of an output or read-write redirection (`>`, `>>`, `>|`, `<>`). */
  openRedirect(path: string, mode: RedirectOpenMode): Promise<GateOutcome<FileHandle>>;
}
