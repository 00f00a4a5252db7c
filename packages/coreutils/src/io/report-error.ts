import type { IoContext } from "./io-context.js";

/** Writes `<program>: <message>\n` to standard error. */
export async function reportError(
  context: IoContext,
  program: string,
  message: string,
): Promise<void> {
  await context.stderr.write(Buffer.from(`${program}: ${message}\n`, "latin1"));
}
