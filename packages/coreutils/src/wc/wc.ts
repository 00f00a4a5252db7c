import { errnoOf, errnoText } from "@agent-bridle/core";
import type { ByteSource } from "../io/byte-source.js";
import { StdinSource } from "../io/byte-source.js";
import type { IoContext } from "../io/io-context.js";
import { openInput } from "../io/open-input.js";
import { reportError } from "../io/report-error.js";
import { resolveOperand } from "../io/resolve-operand.js";
import { parseOptions } from "../options/parse-options.js";
import { unsupportedOption, usageError } from "../options/usage-error.js";
import { toByteString } from "../text/byte-string.js";
import { quotef } from "../text/shell-quote.js";
import { FullCounter, LineCounter, type WcCounts, zeroCounts } from "./wc-counter.js";
import { formatCounts, numberWidth } from "./wc-format.js";
import { selectedCount, WC_SPEC, type WcSelection, wcSettings } from "./wc-options.js";

const PROGRAM = "wc";
const CHUNK = 1024 * 1024;
type Kind = "regular" | "other" | "failed";

async function count(source: ByteSource, selection: WcSelection): Promise<WcCounts> {
  const counter =
    selection.words || selection.maxLineLength ? new FullCounter() : new LineCounter();
  for (let chunk = await source.read(); chunk !== null; chunk = await source.read())
    counter.add(chunk);
  return counter.finish();
}

/** What GNU learns by `stat` before counting: the kind and size of each operand. */
async function statOperands(context: IoContext, operands: readonly string[]) {
  const kinds: Kind[] = [];
  const sizes: number[] = [];
  for (const operand of operands) {
    if (operand === "-") {
      kinds.push("other");
      sizes.push(0);
      continue;
    }
    const stats = await context.opener.stat(resolveOperand(context.cwd, operand));
    kinds.push(stats.ok ? (stats.value.isFile() ? "regular" : "other") : "failed");
    sizes.push(stats.ok ? Number(stats.value.size) : 0);
  }
  return { kinds, sizes };
}

/** GNU `wc`: newline, word, byte and longest-line counts per operand, and a total. */
export async function wc(context: IoContext): Promise<number> {
  const parsed = parseOptions(PROGRAM, WC_SPEC, context.argv);
  if (!parsed.ok) return usageError(context, PROGRAM, parsed.message, 1);
  const settings = wcSettings(parsed.options);
  if (!settings.ok)
    return usageError(context, PROGRAM, unsupportedOption(PROGRAM, settings.spelling), 1);
  const { selection } = settings;
  const named = parsed.operands.length > 0;
  const operands = named ? parsed.operands : ["-"];
  const oneCountOneFile = operands.length === 1 && selectedCount(selection) === 1;
  const { kinds, sizes } = oneCountOneFile
    ? { kinds: ["failed" as Kind], sizes: [0] }
    : await statOperands(context, operands);
  const width = numberWidth(kinds, sizes, oneCountOneFile);
  const stdin = new StdinSource(context.stdin);
  const total = zeroCounts();
  let status = 0;
  for (const operand of operands) {
    const name = toByteString(operand);
    const opened = await openInput(context, stdin, operand, CHUNK, true);
    if (!opened.ok) {
      await reportError(context, PROGRAM, `${quotef(name)}: ${opened.message}`);
      status = 1;
      continue;
    }
    let counts = zeroCounts();
    try {
      counts = await count(opened.input.source, selection);
    } catch (error) {
      await reportError(context, PROGRAM, `${quotef(name)}: ${errnoText(errnoOf(error))}`);
      status = 1;
    } finally {
      await opened.input.close();
    }
    total.lines += counts.lines;
    total.words += counts.words;
    total.bytes += counts.bytes;
    total.maxLineLength = Math.max(total.maxLineLength, counts.maxLineLength);
    await context.stdout.write(
      Buffer.from(formatCounts(counts, selection, width, named ? name : undefined), "latin1"),
    );
  }
  if (operands.length > 1) {
    await context.stdout.write(
      Buffer.from(formatCounts(total, selection, width, "total"), "latin1"),
    );
  }
  return status;
}
