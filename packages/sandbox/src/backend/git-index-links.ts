import { readFile, stat } from "node:fs/promises";

/** What identifies one state of a git index file (it is replaced, never edited in place). */
export type IndexStamp = string;

/** The index's stamp (inode, size, change time), or "" when there is none. */
export async function indexStamp(indexPath: string): Promise<IndexStamp> {
  return stat(indexPath, { bigint: true }).then(
    (st) => `${st.ino}:${st.size}:${st.ctimeNs}`,
    () => "",
  );
}

const GITLINK = 0o160000;
const MODE_TYPE = 0o170000;

/**
 * The paths of the gitlinks (submodule entries, mode 160000) in a git index, versions 2 to
 * 4, SHA-1 or SHA-256 object names (`hashBytes` 20 or 32). An index it cannot read gives
 * none (a damaged index makes git refuse to work, so nothing follows it).
 */
export function gitlinksIn(data: Buffer, hashBytes: 20 | 32): string[] {
  if (data.length < 12 || data.toString("latin1", 0, 4) !== "DIRC") return [];
  const version = data.readUInt32BE(4);
  if (version < 2 || version > 4) return [];
  const count = data.readUInt32BE(8);
  const links: string[] = [];
  let at = 12;
  let previous = "";
  for (let index = 0; index < count; index++) {
    const start = at;
    const fixed = 40 + hashBytes; // stat data (40 bytes), then the object name
    if (at + fixed + 2 > data.length) return links;
    const mode = data.readUInt32BE(at + 24);
    const flags = data.readUInt16BE(at + fixed);
    at += fixed + 2 + (version >= 3 && flags & 0x4000 ? 2 : 0);
    let path: string;
    if (version === 4) {
      // git's offset varint: 7 bits a byte, most significant first, +1 per continuation.
      let byte = data[at++] ?? 0;
      let strip = byte & 0x7f;
      while (byte & 0x80) {
        byte = data[at++] ?? 0;
        strip = ((strip + 1) << 7) + (byte & 0x7f);
      }
      const end = data.indexOf(0, at);
      if (end < 0) return links;
      path = previous.slice(0, previous.length - strip) + data.toString("utf8", at, end);
      at = end + 1;
    } else {
      const end = data.indexOf(0, at);
      if (end < 0) return links;
      path = data.toString("utf8", at, end);
      at = start + Math.ceil((end - start + 1) / 8) * 8; // 1 to 8 NULs, to a multiple of 8
    }
    previous = path;
    if ((mode & MODE_TYPE) === GITLINK) links.push(path);
  }
  return links;
}

const parsed = new Map<string, { readonly stamp: IndexStamp; readonly links: string[] }>();

/**
 * The gitlinks of the repository whose git directory is `gitDir`, for the index state
 * `stamp` (none without an index). An index is parsed once per state: most calls leave it
 * as it was.
 */
export async function gitlinksOf(gitDir: string, stamp: IndexStamp): Promise<string[]> {
  const known = parsed.get(gitDir);
  if (known?.stamp === stamp) return known.links;
  const data = stamp === "" ? undefined : await readFile(`${gitDir}/index`).catch(() => undefined);
  const config = await readFile(`${gitDir}/config`, "utf8").catch(() => "");
  const links =
    data === undefined ? [] : gitlinksIn(data, /objectformat\s*=\s*sha256/i.test(config) ? 32 : 20);
  parsed.delete(gitDir);
  parsed.set(gitDir, { stamp, links });
  if (parsed.size > 64) parsed.delete(parsed.keys().next().value as string);
  return links;
}
