import { spawnSync } from "node:child_process";
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** The canaries of the catalogue's fixture: any of them in a response is a leak. */
export const CANARY = /CANARY-(OUT|BLK|ENV)/;

/** What `snapshot` records besides names, types, modes, owners, times and contents. */
export interface SnapshotOptions {
  /** Extended attributes too (read through `python3`; node has no xattr API). */
  readonly xattrs?: boolean;
}

/**
 * The attack catalogue's fixture (its "Fixture placeholders"): a fresh `$WS` holding
 * `$A` (granted; `ok.txt` = OK, `victim`), `$O` (not granted; `secret.txt` =
 * CANARY-OUT), `$B` = `$A/blocked` (blocked by the path policy; `key.txt` = CANARY-BLK)
 * and the markers `$P`, `$P2`, … (absent unless code ran).
 */
export interface Fixture {
  readonly WS: string;
  readonly A: string;
  readonly O: string;
  readonly B: string;
  readonly P: string;
  /** `$P2`, `$P3`, …: further markers. */
  marker(n: number): string;
  /**
   * Every path under `$WS` outside `$A` (and under `$B`, and under each `watch`ed path)
   * with its type, mode, owner, group, mtime and ctime (ns), content or link target, and
   * with `xattrs` its extended attributes; `exclude`d subtrees left out.
   */
  snapshot(options?: SnapshotOptions): Map<string, string>;
  /** Leaves a subtree out of `snapshot` (an extra granted write root outside `$A`). */
  exclude(path: string): void;
  /** Adds a subtree inside `$A` to `snapshot` (write-blocked files that must not change). */
  watch(path: string): void;
  /** The markers that exist now (any `PWNED*` name under `$WS`, `$A` included). */
  markers(): string[];
}

export function makeFixture(): Fixture {
  const WS = realpathSync(mkdtempSync(join(tmpdir(), "bridle-security-")));
  const A = join(WS, "allowed");
  const O = join(WS, "outside");
  const B = join(A, "blocked");
  mkdirSync(A);
  mkdirSync(O);
  mkdirSync(B);
  writeFileSync(join(O, "secret.txt"), "CANARY-OUT");
  writeFileSync(join(B, "key.txt"), "CANARY-BLK");
  writeFileSync(join(A, "ok.txt"), "OK");
  writeFileSync(join(A, "victim"), "v");
  const marker = (n: number) => join(WS, n === 1 ? "PWNED" : `PWNED${n}`);
  const excluded = new Set<string>();
  const watched = new Set<string>();
  const snapshot = (options: SnapshotOptions = {}) => {
    const seen = new Map<string, string>();
    const walk = (directory: string) => {
      for (const name of readdirSync(directory).sort()) {
        const path = join(directory, name);
        if (path === A || excluded.has(path)) continue;
        seen.set(path, entryOf(path));
        if (lstatSync(path).isDirectory()) walk(path);
      }
    };
    walk(WS);
    walk(B);
    for (const path of watched) {
      if (!existsSync(path)) continue;
      seen.set(path, entryOf(path));
      if (lstatSync(path).isDirectory()) walk(path);
    }
    if (options.xattrs) {
      const xattrs = xattrsOf([...seen.keys()]);
      for (const [path, entry] of seen) seen.set(path, `${entry}:xattrs=${xattrs[path] ?? "?"}`);
    }
    return seen;
  };
  const markers = () => {
    const found: string[] = [];
    const walk = (directory: string) => {
      for (const entry of readdirSync(directory, { withFileTypes: true })) {
        const path = join(directory, entry.name);
        if (entry.name.startsWith("PWNED")) found.push(path);
        if (entry.isDirectory()) walk(path);
      }
    };
    walk(WS);
    return found;
  };
  return {
    WS,
    A,
    O,
    B,
    P: marker(1),
    marker,
    snapshot,
    markers,
    exclude: (path) => excluded.add(path),
    watch: (path) => watched.add(path),
  };
}

/** One entry of a snapshot: type, mode, owner, group, mtime, ctime and content or target. */
function entryOf(path: string): string {
  const stat = lstatSync(path, { bigint: true });
  const facts = `${stat.mode}:${stat.uid}:${stat.gid}:m${stat.mtimeNs}:c${stat.ctimeNs}`;
  if (stat.isSymbolicLink()) return `link:${facts}:${readlinkSync(path)}`;
  if (stat.isDirectory()) return `dir:${facts}`;
  if (stat.isFile()) return `file:${facts}:${readFileSync(path, "latin1")}`;
  return `other:${facts}:${stat.rdev}`;
}

const LIST_XATTRS = `
import json, os, sys
out = {}
for path in json.load(sys.stdin):
    try:
        names = sorted(os.listxattr(path, follow_symlinks=False))
        out[path] = ",".join(n + "=" + os.getxattr(path, n, follow_symlinks=False).hex() for n in names)
    except OSError as e:
        out[path] = "!" + str(e.errno)
print(json.dumps(out))
`;

/** The extended attributes of `paths` (`name=hex,…`), by one `python3` run. */
function xattrsOf(paths: readonly string[]): Record<string, string> {
  const run = spawnSync("/usr/bin/python3", ["-c", LIST_XATTRS], {
    input: JSON.stringify(paths),
    encoding: "utf8",
  });
  if (run.status !== 0) throw new Error(`listing xattrs failed: ${run.stderr}`);
  return JSON.parse(run.stdout) as Record<string, string>;
}

export function removeFixture(fixture: Fixture): void {
  if (existsSync(fixture.WS)) rmSync(fixture.WS, { recursive: true, force: true });
}
