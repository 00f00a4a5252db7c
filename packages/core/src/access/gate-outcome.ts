import type { BigIntStats } from "node:fs";
import type { FileHandle } from "node:fs/promises";
import type { Denial } from "../envelope/denial.js";

/**
 * Why a gated operation did not happen: the caller's policy refused it (`denial`, shown
 * as the permission error and recorded), or the system failed it (`errno`, a Node
 * error code such as `ENOENT`, shown with the matching C library text).
 */
export type GateRefusal =
  | { readonly ok: false; readonly denial: Denial }
  | { readonly ok: false; readonly errno: string };

export type GateOutcome<T> = { readonly ok: true; readonly value: T } | GateRefusal;

/**
 * The caller's gate over the filesystem, as a shell engine or a utility sees it (the L2
 * access contract). Every path is absolute; every operand goes through one of these.
 * `open` opens for reading, `openWrite` creates or truncates.
 */
export interface GatedOpener {
  open(path: string): Promise<GateOutcome<FileHandle>>;
  openWrite(path: string): Promise<GateOutcome<FileHandle>>;
  stat(path: string): Promise<GateOutcome<BigIntStats>>;
  lstat(path: string): Promise<GateOutcome<BigIntStats>>;
  readdir(path: string): Promise<GateOutcome<readonly string[]>>;
  readlink(path: string): Promise<GateOutcome<string>>;
}
