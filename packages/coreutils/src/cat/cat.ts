import { errnoOf, errnoText } from "@agent-bridle/core";
import { StdinSource } from "../io/byte-source.js";
import type { IoContext } from "../io/io-context.js";
import { openInput } from "../io/open-input.js";
import { OutputBuffer } from "../io/output-buffer.js";
import { reportError } from "../io/report-error.js";
import { parseOptions } from "../options/parse-options.js";
import { unsupportedOption, usageError } from "../options/usage-error.js";
import { toByteString } from "../text/byte-string.js";
import { quotef } from "../text/shell-quote.js";
import { CatFormatter } from "./cat-formatter.js";
import { CAT_SPEC, catSettings, isPlainCopy } from "./cat-options.js";

const PROGRAM = "cat";
const COPY_CHUNK = 1024 * 1024;

/** GNU `cat`: concatenate operands (`-` is standard input) to standard output. */
export async function cat(context: IoContext): Promise<number> {
  const parsed = parseOptions(PROGRAM, CAT_SPEC, context.argv);
  if (!parsed.ok) return usageError(context, PROGRAM, parsed.message, 1);
  const settings = catSettings(parsed.options);
  if (!settings.ok)
    return usageError(context, PROGRAM, unsupportedOption(PROGRAM, settings.spelling), 1);
  const plain = isPlainCopy(settings.format);
  const formatter = new CatFormatter(settings.format);
  const stdin = new StdinSource(context.stdin);
  const out = new OutputBuffer(context.stdout);
  const operands = parsed.operands.length === 0 ? ["-"] : parsed.operands;
  let status = 0;
  for (const operand of operands) {
    const opened = await openInput(context, stdin, operand, plain ? COPY_CHUNK : undefined, plain);
    if (!opened.ok) {
      await out.flush();
      await reportError(context, PROGRAM, `${quotef(toByteString(operand))}: ${opened.message}`);
      status = 1;
      continue;
    }
    try {
      for (
        let chunk = await opened.input.source.read();
        chunk !== null;
        chunk = await opened.input.source.read()
      ) {
        await out.write(plain ? chunk : formatter.format(chunk));
      }
      if (!plain) await out.write(formatter.finish());
    } catch (error) {
      await out.flush();
      const text = errnoText(errnoOf(error));
      await reportError(context, PROGRAM, `${quotef(toByteString(operand))}: ${text}`);
      status = 1;
    } finally {
      await opened.input.close();
    }
  }
  await out.flush();
  return status;
}
