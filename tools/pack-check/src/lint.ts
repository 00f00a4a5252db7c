import { readFile } from "node:fs/promises";
import { publint } from "publint";
import { formatMessage } from "publint/utils";

export interface LintMessage {
  readonly type: "suggestion" | "warning" | "error";
  readonly code: string;
  readonly text: string;
}

/**
 * publint on the tarball itself (what would be published), strict: a warning counts as an
 * error. Returns every message, suggestions included; the check fails on any non-suggestion.
 */
export async function lintTarball(tarballPath: string): Promise<LintMessage[]> {
  const bytes = await readFile(tarballPath);
  const tarball = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  const result = await publint({ pack: { tarball }, level: "suggestion", strict: true });
  return result.messages.map((message) => ({
    type: message.type,
    code: message.code,
    text: formatMessage(message, result.pkg, { color: false }) ?? message.code,
  }));
}
