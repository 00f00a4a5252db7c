import type { IoContext } from "../io/io-context.js";

/** GNU's usage failure: the message, the "Try … --help" line, then the status. */
export async function usageError(
  context: IoContext,
  program: string,
  message: string,
  status: number,
): Promise<number> {
  const text = `${message}Try '${program} --help' for more information.\n`;
  await context.stderr.write(Buffer.from(text, "latin1"));
  return status;
}

/** A GNU option this implementation does not carry: refused, never approximated. */
export function unsupportedOption(program: string, spelling: string): string {
  return `${program}: option '${spelling}' is not supported by this implementation\n`;
}
