import type { FileHandle } from "node:fs/promises";
import { errnoOf, errnoText } from "@agent-bridle/core";
import { StdinSource } from "../io/byte-source.js";
import type { IoContext } from "../io/io-context.js";
import { type OpenedInput, openInput } from "../io/open-input.js";
import { refusalText } from "../io/refusal-text.js";
import { reportError } from "../io/report-error.js";
import { resolveOperand } from "../io/resolve-operand.js";
import { usageError } from "../options/usage-error.js";
import { toByteString } from "../text/byte-string.js";
import { quotef } from "../text/shell-quote.js";
import { findDisorder } from "./check-order.js";
import { collectRuns } from "./collect-runs.js";
import { createComparator, createLineSorter, createUniqueComparator } from "./compare-lines.js";
import { LineOutput } from "./line-output.js";
import { LineReader } from "./line-reader.js";
import { mergeRuns } from "./merge-runs.js";
import { parseSortOptions, type SortSettings } from "./sort-options.js";
import { openRun } from "./spill-runs.js";

const PROGRAM = "sort";
const FAILURE = 2;
const DEFAULT_BUFFER_BYTES = 64 * 1024 * 1024;

/** Thrown to stop with GNU's message and status 2 (`die`). */
class SortFailure extends Error {}

async function openAll(context: IoContext, operands: readonly string[]): Promise<OpenedInput[]> {
  const stdin = new StdinSource(context.stdin);
  const inputs: OpenedInput[] = [];
  for (const operand of operands) {
    const opened = await openInput(context, stdin, operand);
    if (!opened.ok) {
      await Promise.all(inputs.map((input) => input.close()));
      throw new SortFailure(`cannot read: ${quotef(toByteString(operand))}: ${opened.message}`);
    }
    inputs.push(opened.input);
  }
  return inputs;
}

/** A reader that turns a read error into GNU's `read failed: NAME: …`. */
function guardedReader(input: OpenedInput, operand: string): LineReader {
  const reader = new LineReader({
    read: () =>
      input.source.read().catch((error: unknown) => {
        throw new SortFailure(
          `read failed: ${quotef(toByteString(operand))}: ${errnoText(errnoOf(error))}`,
        );
      }),
  });
  return reader;
}

async function check(
  context: IoContext,
  settings: SortSettings,
  operand: string,
  input: OpenedInput,
): Promise<number> {
  const compare = createComparator(settings);
  const disorder = await findDisorder(guardedReader(input, operand), compare, settings.unique);
  if (disorder === undefined) return 0;
  if (settings.check === "diagnose") {
    const text = `${PROGRAM}: ${toByteString(operand)}:${disorder.number}: disorder: ${disorder.line}\n`;
    await context.stderr.write(Buffer.from(text, "latin1"));
  }
  return 1;
}

async function openOutput(context: IoContext, name: string): Promise<FileHandle> {
  const opened = await context.opener.openWrite(resolveOperand(context.cwd, name));
  if (!opened.ok)
    throw new SortFailure(
      `open failed: ${quotef(toByteString(name))}: ${refusalText(context, opened)}`,
    );
  return opened.value;
}

async function sortAndWrite(
  context: IoContext,
  settings: SortSettings,
  inputs: readonly OpenedInput[],
  operands: readonly string[],
): Promise<void> {
  const compare = createComparator(settings);
  const sameLine = createUniqueComparator(settings);
  const readers = inputs.map((input, index) => guardedReader(input, operands[index] as string));
  const limit = context.sortBufferBytes ?? DEFAULT_BUFFER_BYTES;
  const collected = await collectRuns(readers, createLineSorter(settings), context.tempDir, limit);
  let handle: FileHandle | undefined;
  try {
    if (settings.output !== undefined) handle = await openOutput(context, settings.output);
    const target = handle;
    const output = new LineOutput(
      target === undefined
        ? context.stdout
        : { write: (chunk) => target.write(chunk).then(() => undefined) },
    );
    let previous: string | undefined;
    const emit = (line: string) => {
      if (settings.unique && previous !== undefined && sameLine(previous, line) === 0)
        return undefined;
      previous = line;
      return output.add(line);
    };
    if (collected.runs.length === 0 && !settings.unique) {
      await output.addAll(collected.memory);
    } else if (collected.runs.length === 0) {
      for (const line of collected.memory) {
        const pending = emit(line);
        if (pending !== undefined) await pending;
      }
    } else {
      const opened = await Promise.all(collected.runs.map((path) => openRun(path)));
      try {
        const memory = collected.memory;
        let next = 0;
        const memoryReader = {
          next: async () => (next < memory.length ? (memory[next++] as string) : null),
        };
        await mergeRuns(
          [...opened.map((run) => run.reader), memoryReader as LineReader],
          compare,
          emit,
        );
      } finally {
        await Promise.all(opened.map((run) => run.close()));
      }
    }
    await output.flush();
  } finally {
    await handle?.close();
    await collected.remove();
  }
}

/** GNU `sort` (C locale): sort, merge of spilled runs, `-c`/`-C` checks, `-o`. */
export async function sort(context: IoContext): Promise<number> {
  const parsed = parseSortOptions(context.argv);
  if (!parsed.ok) {
    if (parsed.usage) return usageError(context, PROGRAM, parsed.message, parsed.status ?? FAILURE);
    await context.stderr.write(Buffer.from(parsed.message, "latin1"));
    return FAILURE;
  }
  const { settings } = parsed;
  const operands = settings.operands.length === 0 ? ["-"] : settings.operands;
  let inputs: OpenedInput[] = [];
  try {
    inputs = await openAll(context, operands);
    if (settings.check !== "none")
      return await check(context, settings, operands[0] as string, inputs[0] as OpenedInput);
    await sortAndWrite(context, settings, inputs, operands);
    return 0;
  } catch (error) {
    if (!(error instanceof SortFailure)) throw error;
    await reportError(context, PROGRAM, error.message);
    return FAILURE;
  } finally {
    await Promise.all(inputs.map((input) => input.close()));
  }
}
