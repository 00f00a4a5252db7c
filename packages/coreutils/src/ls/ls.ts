import type { IoContext } from "../io/io-context.js";
import { OutputBuffer } from "../io/output-buffer.js";
import { refusalText } from "../io/refusal-text.js";
import { reportError } from "../io/report-error.js";
import { resolveOperand } from "../io/resolve-operand.js";
import { parseOptions } from "../options/parse-options.js";
import { unsupportedOption, usageError } from "../options/usage-error.js";
import { toByteString } from "../text/byte-string.js";
import { quoteaf } from "../text/shell-quote.js";
import type { FileEntry } from "./file-entry.js";
import { LsClock } from "./format-time.js";
import { gatherEntry } from "./gather-entries.js";
import { IdNames } from "./id-names.js";
import { longLines, totalLine } from "./long-format.js";
import { LS_SPEC, type LsSettings, lsSettings } from "./ls-options.js";
import { isDirectoryMode, typeIndicator } from "./mode-string.js";
import { sortEntries } from "./sort-entries.js";
import { standInParent, withheldEntry } from "./withheld-entry.js";

const PROGRAM = "ls";
const SERIOUS = 2;
const MINOR = 1;

interface Run {
  readonly context: IoContext;
  readonly settings: LsSettings;
  readonly out: OutputBuffer;
  readonly names: IdNames;
  readonly clock: LsClock;
  status: number;
  first: boolean;
}

async function fail(run: Run, message: string, serious: boolean): Promise<void> {
  await run.out.flush();
  await reportError(run.context, PROGRAM, message);
  run.status = Math.max(run.status, serious ? SERIOUS : MINOR);
}

async function printEntries(
  run: Run,
  entries: readonly FileEntry[],
  withTotal: boolean,
  alsoSized: readonly FileEntry[] = [],
): Promise<void> {
  const { settings } = run;
  if (settings.long) {
    if (withTotal) await run.out.writeText(totalLine(entries, settings.human));
    const options = { human: settings.human, classify: settings.classify, clock: run.clock };
    await run.out.writeText(await longLines(entries, run.names, options, alsoSized));
    return;
  }
  const text = entries
    .map((entry) => `${entry.name}${settings.classify ? typeIndicator(entry.stats.mode) : ""}\n`)
    .join("");
  await run.out.writeText(text);
}

const childShownPath = (parent: string, name: string) =>
  parent.endsWith("/") ? `${parent}${name}` : `${parent}/${name}`;

/**
 * An entry of a directory the grant lets `ls` list, which the grant does not let it look
 * at: the name is shown (the listing was allowed), its metadata withheld, nothing
 * reported or recorded (nothing the script asked for was refused). `..` of a directory at
 * the edge of the grant is the private view's stand-in.
 */
function withheld(run: Run, file: Pick<FileEntry, "name" | "path" | "shownPath">, raw: string) {
  if (raw !== "..") return withheldEntry(file);
  const owner = { uid: BigInt(process.getuid?.() ?? 0), gid: BigInt(process.getgid?.() ?? 0) };
  return standInParent(file, owner, run.clock.nowFor(0n));
}

async function readEntries(
  run: Run,
  directory: FileEntry,
  names: readonly string[],
): Promise<FileEntry[]> {
  const entries: FileEntry[] = [];
  for (const raw of names) {
    const name = toByteString(raw);
    const file = {
      name,
      path: childShownPath(directory.path, raw),
      shownPath: childShownPath(directory.shownPath, name),
      commandLine: false,
    };
    const gathered = await gatherEntry(run.context, file, false, run.settings.long);
    if (gathered.ok) entries.push(gathered.entry);
    else if ("denial" in gathered.refusal) entries.push(withheld(run, file, raw));
    else {
      const message = refusalText(run.context, gathered.refusal);
      await fail(run, `cannot access ${quoteaf(file.shownPath)}: ${message}`, false);
    }
  }
  return entries;
}

function visibleNames(listed: readonly string[], settings: LsSettings): string[] {
  const names =
    settings.all === "default" ? listed.filter((name) => !name.startsWith(".")) : [...listed];
  return settings.all === "all" ? [".", "..", ...names] : names;
}

/** Lists one directory; returns its subdirectories to descend into (under -R). */
async function listDirectory(
  run: Run,
  directory: FileEntry,
  printName: boolean,
): Promise<FileEntry[]> {
  const listed = await run.context.opener.readdir(directory.path);
  if (!listed.ok) {
    const message = refusalText(run.context, listed);
    await fail(
      run,
      `cannot open directory ${quoteaf(directory.shownPath)}: ${message}`,
      directory.commandLine,
    );
    return [];
  }
  if (run.settings.recursive || printName) {
    await run.out.writeText(`${run.first ? "" : "\n"}${directory.shownPath}:\n`);
  }
  run.first = false;
  const entries = sortEntries(
    await readEntries(run, directory, visibleNames(listed.value, run.settings)),
    run.settings,
  );
  await printEntries(run, entries, true);
  if (!run.settings.recursive) return [];
  return entries.filter(
    (entry) => isDirectoryMode(entry.stats.mode) && entry.name !== "." && entry.name !== "..",
  );
}

async function gatherOperands(run: Run, operands: readonly string[]): Promise<FileEntry[]> {
  const { settings } = run;
  const follow = !(settings.directoryAsFile || settings.classify || settings.long);
  const entries: FileEntry[] = [];
  for (const operand of operands) {
    const name = toByteString(operand);
    const file = {
      name,
      path: resolveOperand(run.context.cwd, operand),
      shownPath: name,
      commandLine: true,
    };
    const gathered = await gatherEntry(run.context, file, follow, settings.long);
    if (gathered.ok) entries.push(gathered.entry);
    else {
      const message = refusalText(run.context, gathered.refusal);
      await fail(run, `cannot access ${quoteaf(name)}: ${message}`, true);
    }
  }
  return sortEntries(entries, settings);
}

/** GNU `ls` (C locale, output not a terminal: one name per line unless -l). */
export async function ls(context: IoContext): Promise<number> {
  const parsed = parseOptions(PROGRAM, LS_SPEC, context.argv);
  if (!parsed.ok) return usageError(context, PROGRAM, parsed.message, SERIOUS);
  const chosen = lsSettings(parsed.options);
  if (!chosen.ok)
    return usageError(context, PROGRAM, unsupportedOption(PROGRAM, chosen.spelling), SERIOUS);
  const { settings } = chosen;
  const run: Run = {
    context,
    settings,
    out: new OutputBuffer(context.stdout),
    names: new IdNames(context),
    clock: new LsClock(),
    status: 0,
    first: true,
  };
  const operands = parsed.operands.length === 0 ? ["."] : parsed.operands;
  const entries = await gatherOperands(run, operands);
  const isListedDirectory = (entry: FileEntry) =>
    !settings.directoryAsFile && isDirectoryMode(entry.stats.mode);
  const files = entries.filter((entry) => !isListedDirectory(entry));
  const pending = entries.filter(isListedDirectory).reverse();
  let printNames = true;
  if (files.length > 0) {
    await printEntries(run, files, false, entries.filter(isListedDirectory));
    if (pending.length > 0) await run.out.writeText("\n");
  } else if (operands.length <= 1 && pending.length === 1) printNames = false;
  for (let directory = pending.pop(); directory !== undefined; directory = pending.pop()) {
    const children = await listDirectory(run, directory, printNames);
    pending.push(...children.reverse());
  }
  await run.out.flush();
  return run.status;
}
