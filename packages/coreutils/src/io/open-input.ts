import type { FileHandle } from "node:fs/promises";
import { type ByteSource, fileSource, type StdinSource } from "./byte-source.js";
import type { IoContext } from "./io-context.js";
import { refusalText } from "./refusal-text.js";
import { resolveOperand } from "./resolve-operand.js";

/** An opened input operand: its bytes and, for files, the handle to close. */
export interface OpenedInput {
  readonly source: ByteSource;
  readonly handle: FileHandle | undefined;
  close(): Promise<void>;
}

export type OpenInputResult =
  | { readonly ok: true; readonly input: OpenedInput }
  | { readonly ok: false; readonly message: string };

/**
 * Opens one input operand: `-` is standard input, anything else goes through the
 * caller's gated opener. A refusal comes back as GNU's error text (`message`).
 */
export async function openInput(
  context: IoContext,
  stdin: StdinSource,
  operand: string,
  chunkSize?: number,
  reuse = false,
): Promise<OpenInputResult> {
  if (operand === "-") {
    return { ok: true, input: { source: stdin, handle: undefined, close: async () => {} } };
  }
  const opened = await context.opener.open(resolveOperand(context.cwd, operand));
  if (!opened.ok) return { ok: false, message: refusalText(context, opened) };
  const handle = opened.value;
  return {
    ok: true,
    input: { source: fileSource(handle, chunkSize, reuse), handle, close: () => handle.close() },
  };
}
