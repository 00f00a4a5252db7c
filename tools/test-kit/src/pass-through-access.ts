import { lstat, open, readdir, readlink, stat } from "node:fs/promises";

// DEV-ONLY. A gate that lets everything through: the bash interpreter's unit tests and
// the bash-compat runner use it where the worker supplies its judge-backed gate.
// Structurally the interpreter's `ShellAccess` (and so the coreutils `GatedOpener`);
// it never refuses by policy, only with the system's error code.

type Outcome<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly errno: string };

function errnoOf(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  return typeof code === "string" ? code : "EIO";
}

async function attempt<T>(act: () => Promise<T>): Promise<Outcome<T>> {
  try {
    return { ok: true, value: await act() };
  } catch (error) {
    return { ok: false, errno: errnoOf(error) };
  }
}

/** How a redirection opens its target (structurally the interpreter's `RedirectOpenMode`). */
export interface PassThroughOpenMode {
  readonly append?: boolean | undefined;
  readonly exclusive?: boolean | undefined;
  readonly readWrite?: boolean | undefined;
}

/** `>` truncates, `>>` appends, `<>` reads and writes (created when missing, never truncated). */
async function openRedirect(path: string, mode: PassThroughOpenMode) {
  if (mode.exclusive) {
    const existing = await attempt(() => stat(path));
    if (existing.ok && existing.value.isFile()) return { ok: false, errno: "EEXIST" } as const;
  }
  if (!mode.readWrite) return attempt(() => open(path, mode.append ? "a" : "w"));
  const existing = await attempt(() => open(path, "r+"));
  if (existing.ok || existing.errno !== "ENOENT") return existing;
  return attempt(() => open(path, "w+"));
}

/** Everything allowed; system errors come back as `errno`. */
export const passThroughAccess = {
  open: (path: string) => attempt(() => open(path, "r")),
  openWrite: (path: string) => attempt(() => open(path, "w")),
  stat: (path: string) => attempt(() => stat(path, { bigint: true })),
  lstat: (path: string) => attempt(() => lstat(path, { bigint: true })),
  statProgram: (path: string) => attempt(() => stat(path, { bigint: true })),
  readdir: (path: string) => attempt(() => readdir(path)),
  readlink: (path: string) => attempt(() => readlink(path)),
  checkExec: async (_spelled: string, _resolved: string): Promise<Outcome<void>> => ({
    ok: true,
    value: undefined,
  }),
  openRedirect,
};
