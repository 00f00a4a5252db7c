import { errnoOf, errnoText } from "@agent-bridle/core";
import type { ByteSource } from "../io/byte-source.js";
import { StdinSource } from "../io/byte-source.js";
import type { IoContext } from "../io/io-context.js";
import { openInput } from "../io/open-input.js";
import { OutputBuffer } from "../io/output-buffer.js";
import { reportError } from "../io/report-error.js";
import { usageError } from "../options/usage-error.js";
import { toByteString } from "../text/byte-string.js";
import { quoteaf } from "../text/shell-quote.js";
import { headBytes, headLines } from "./head-copy.js";
import { elideTailBytes, elideTailLines } from "./head-elide.js";
import { type HeadSettings, parseHeadOptions } from "./head-options.js";

const PROGRAM = "head";

function copyPart(settings: HeadSettings, source: ByteSource, out: OutputBuffer): Promise<void> {
  if (settings.fromEnd) {
    return settings.countLines
      ? elideTailLines(source, out, settings.count)
      : elideTailBytes(source, out, settings.count);
  }
  return settings.countLines
    ? headLines(source, out, settings.count)
    : headBytes(source, out, settings.count);
}

/** GNU `head`: the first (or all but the last) N lines or bytes of each operand. */
export async function head(context: IoContext): Promise<number> {
  const parsed = parseHeadOptions(context.argv);
  if (!parsed.ok) {
    if (parsed.usage) return usageError(context, PROGRAM, parsed.message, 1);
    await context.stderr.write(Buffer.from(parsed.message, "latin1"));
    return 1;
  }
  const { settings } = parsed;
  const operands = settings.operands.length === 0 ? ["-"] : settings.operands;
  const headers =
    settings.headers === "always" || (settings.headers === "auto" && operands.length > 1);
  const stdin = new StdinSource(context.stdin);
  const out = new OutputBuffer(context.stdout);
  let status = 0;
  let first = true;
  for (const operand of operands) {
    const name = operand === "-" ? "standard input" : toByteString(operand);
    const opened = await openInput(context, stdin, operand);
    if (!opened.ok) {
      await out.flush();
      await reportError(
        context,
        PROGRAM,
        `cannot open ${quoteaf(name)} for reading: ${opened.message}`,
      );
      status = 1;
      continue;
    }
    if (headers) await out.writeText(`${first ? "" : "\n"}==> ${name} <==\n`);
    first = false;
    try {
      await copyPart(settings, opened.input.source, out);
    } catch (error) {
      await out.flush();
      await reportError(
        context,
        PROGRAM,
        `error reading ${quoteaf(name)}: ${errnoText(errnoOf(error))}`,
      );
      status = 1;
    } finally {
      await opened.input.close();
    }
  }
  await out.flush();
  return status;
}
