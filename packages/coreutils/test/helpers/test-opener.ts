import { lstat, open, readdir, readlink, stat } from "node:fs/promises";
import { resolve } from "node:path";
import type { GatedOpener, GateOutcome } from "@agent-bridle/core";
import { createDenial } from "@agent-bridle/core";

/**
 * A test gate: paths under `root` are allowed unless listed in `denied`, both judged on
 * the path with `.` and `..` folded (`dir/./sub` is `dir/sub`).
 */
export interface TestOpenerOptions {
  readonly root: string;
  readonly denied?: readonly string[];
  /** Further single paths allowed (the differential suites allow /etc/passwd, /etc/group). */
  readonly alsoAllowed?: readonly string[];
  /** Called for every gated operation that reached the filesystem. */
  readonly onAccess?: (path: string) => void;
}

function errnoOf(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  return typeof code === "string" ? code : "EIO";
}

export function createTestOpener(options: TestOpenerOptions): GatedOpener {
  const denied = new Set(options.denied ?? []);
  const extra = new Set(options.alsoAllowed ?? []);
  const inside = (path: string) =>
    extra.has(path) || path === options.root || path.startsWith(`${options.root}/`);
  async function gated<T>(path: string, act: () => Promise<T>): Promise<GateOutcome<T>> {
    if (!inside(resolve(path)) || denied.has(resolve(path))) {
      return {
        ok: false,
        denial: createDenial(
          "open",
          path,
          "FS_OUTSIDE_ALLOWED",
          `read of ${path} is outside the granted scope`,
        ),
      };
    }
    options.onAccess?.(path);
    try {
      return { ok: true, value: await act() };
    } catch (error) {
      return { ok: false, errno: errnoOf(error) };
    }
  }
  return {
    open: (path) => gated(path, () => open(path, "r")),
    openWrite: (path) => gated(path, () => open(path, "w")),
    stat: (path) => gated(path, () => stat(path, { bigint: true })),
    lstat: (path) => gated(path, () => lstat(path, { bigint: true })),
    readdir: (path) => gated(path, () => readdir(path)),
    readlink: (path) => gated(path, () => readlink(path)),
  };
}
