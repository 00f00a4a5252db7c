import { mkdir, mkdtemp, readFile, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach } from "vitest";

/** The catalogue's fixture (attacks/catalogue.md, "Fixture placeholders"). */
export interface Workspace {
  /** `$WS`: a fresh temp directory, at its real location. */
  readonly root: string;
  /** `$A`: the allowed root, holding `ok.txt` = `OK`. */
  readonly allowed: string;
  /** `$O`: not granted; holds `secret.txt` = `CANARY-OUT`. */
  readonly outside: string;
  /** `$B`: a blocked path inside the allowed root; holds `key.txt` = `CANARY-BLK`. */
  readonly blocked: string;
  /** `$P`: a marker file whose creation would prove code ran. */
  readonly marker: string;
}

export type TreeEntry = string | Buffer | { readonly link: string } | { readonly dir: true };

/** Builds entries under `root`: content, `{link}` (target as given), or `{dir: true}`. */
export async function buildTree(root: string, entries: Record<string, TreeEntry>): Promise<void> {
  for (const [relative, entry] of Object.entries(entries)) {
    const target = path.join(root, relative);
    await mkdir(path.dirname(target), { recursive: true });
    if (typeof entry === "string" || Buffer.isBuffer(entry)) await writeFile(target, entry);
    else if ("link" in entry) await symlink(entry.link, target);
    else await mkdir(target, { recursive: true });
  }
}

export async function createWorkspace(): Promise<Workspace> {
  const root = await realpath(await mkdtemp(path.join(tmpdir(), "bridle-fs-tools-")));
  const workspace = {
    root,
    allowed: path.join(root, "allowed"),
    outside: path.join(root, "outside"),
    blocked: path.join(root, "allowed", "blocked"),
    marker: path.join(root, "PWNED"),
  };
  await buildTree(root, {
    "allowed/ok.txt": "OK",
    "allowed/blocked/key.txt": "CANARY-BLK",
    "outside/secret.txt": "CANARY-OUT",
  });
  return workspace;
}

export async function removeWorkspace(workspace: Workspace | undefined): Promise<void> {
  if (workspace !== undefined) await rm(workspace.root, { recursive: true, force: true });
}

/**
 * A fresh workspace for each test of the calling file, removed after it. The returned
 * object always holds the running test's paths; `allowedTree` adds entries under `$A`.
 */
export function useWorkspace(
  allowedTree?: (ws: Workspace) => Record<string, TreeEntry>,
): Workspace {
  const current = {} as { -readonly [Key in keyof Workspace]: Workspace[Key] };
  let made: Workspace | undefined;
  beforeEach(async () => {
    made = await createWorkspace();
    Object.assign(current, made);
    if (allowedTree !== undefined) await buildTree(made.allowed, allowedTree(made));
  });
  afterEach(async () => {
    await removeWorkspace(made);
    made = undefined;
  });
  return current;
}

/** Every file under a directory with its content, for "nothing changed" assertions. */
export async function snapshot(directory: string): Promise<Record<string, string>> {
  const { readdir } = await import("node:fs/promises");
  const entries = await readdir(directory, { recursive: true, withFileTypes: true });
  const files: Record<string, string> = {};
  for (const entry of entries) {
    const full = path.join(entry.parentPath, entry.name);
    const relative = path.relative(directory, full);
    if (entry.isSymbolicLink()) files[relative] = "<link>";
    else if (entry.isFile()) files[relative] = await readFile(full, "utf8");
    else if (entry.isDirectory()) files[`${relative}/`] = "<dir>";
    else files[relative] = "<special>";
  }
  return files;
}
