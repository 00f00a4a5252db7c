import type { FileEntry } from "./file-entry.js";
import { formatTime, type LsClock } from "./format-time.js";
import { humanSize } from "./human-size.js";
import type { IdNames } from "./id-names.js";
import { isLinkMode, modeString, typeIndicator } from "./mode-string.js";

export interface LongOptions {
  readonly human: boolean;
  readonly classify: boolean;
  readonly clock: LsClock;
}

interface Row {
  mode: string;
  links: string;
  owner: string;
  group: string;
  size: string;
  time: string;
  name: string;
}

function nameColumn(entry: FileEntry, classify: boolean): string {
  if (entry.linkTarget !== undefined) {
    const indicator =
      classify && entry.linkStats !== undefined ? typeIndicator(entry.linkStats.mode) : "";
    return `${entry.name} -> ${entry.linkTarget}${indicator}`;
  }
  return classify ? `${entry.name}${typeIndicator(entry.stats.mode)}` : entry.name;
}

/** GNU's row for an entry it could not stat: its name, `?` for everything else. */
function withheldRow(entry: FileEntry): Row {
  const unknown = "?";
  const time = unknown.padStart(12);
  const fields = { links: unknown, owner: unknown, group: unknown, size: unknown, time };
  return { mode: "??????????", ...fields, name: entry.name };
}

async function row(entry: FileEntry, names: IdNames, options: LongOptions): Promise<Row> {
  if (entry.withheld === true) return withheldRow(entry);
  const { stats } = entry;
  return {
    mode: modeString(stats.mode),
    links: String(stats.nlink),
    owner: await names.user(stats.uid),
    group: await names.group(stats.gid),
    size: options.human ? humanSize(stats.size) : String(stats.size),
    time: formatTime(stats.mtimeNs, options.clock),
    name: nameColumn(entry, options.classify),
  };
}

const widest = (rows: readonly Row[], pick: (row: Row) => string) =>
  rows.reduce((width, current) => Math.max(width, pick(current).length), 0);

/**
 * `ls -l` lines for `entries`, columns aligned as GNU aligns them. `alsoSized`: entries
 * not printed here that still widen the columns (GNU sizes the command-line columns
 * before it sets the directory operands aside).
 */
export async function longLines(
  entries: readonly FileEntry[],
  names: IdNames,
  options: LongOptions,
  alsoSized: readonly FileEntry[] = [],
): Promise<string> {
  const rows: Row[] = [];
  for (const entry of entries) rows.push(await row(entry, names, options));
  const sized = [...rows];
  for (const entry of alsoSized) sized.push(await row(entry, names, options));
  const links = widest(sized, (current) => current.links);
  const owner = widest(sized, (current) => current.owner);
  const group = widest(sized, (current) => current.group);
  const size = widest(sized, (current) => current.size);
  return rows
    .map(
      (current) =>
        `${current.mode} ${current.links.padStart(links)} ${current.owner.padEnd(owner)} ${current.group.padEnd(group)} ${current.size.padStart(size)} ${current.time} ${current.name}\n`,
    )
    .join("");
}

/** The "total" line: 1K blocks, rounded up (or human-readable under -h). */
export function totalLine(entries: readonly FileEntry[], human: boolean): string {
  const blocks = entries.reduce((sum, entry) => sum + entry.stats.blocks, 0n);
  const bytes = blocks * 512n;
  return `total ${human ? humanSize(bytes) : String((bytes + 1023n) / 1024n)}\n`;
}

export { isLinkMode };
