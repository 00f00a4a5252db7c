import type { BigIntStats } from "node:fs";

/** One file to list: its name as shown, its path for the gate, and what stat said. */
export interface FileEntry {
  /** The name as printed (an operand as given, or a directory entry's name). */
  readonly name: string;
  /** The absolute path the gate sees. */
  readonly path: string;
  /** The path as GNU would show it in diagnostics and -R headers. */
  readonly shownPath: string;
  readonly stats: BigIntStats;
  /** For a symbolic link under -l: its target text and (when it resolves) the target's stats. */
  readonly linkTarget?: string | undefined;
  readonly linkStats?: BigIntStats | undefined;
  /** A command-line operand (affects how a failure to open it counts). */
  readonly commandLine: boolean;
  /**
   * A directory entry the grant does not let `ls` look at: its name is listed, its
   * metadata is not (`stats` are zero; `-l` prints GNU's `?` fields for it).
   */
  readonly withheld?: boolean;
}
