import type { Code, ReadFileResult } from "@agent-bridle/core";
import { decodeText, type TextEncoding } from "./text-encoding.js";

/** What a read produced (the tool adds `path` and `size`), or why it refused. */
export type ReadOutcome =
  | { readonly ok: true; readonly value: Omit<ReadFileResult, "path" | "size"> }
  | { readonly ok: false; readonly code: Code; readonly explanation: string };

type Range = ReadFileResult["range"];

/** A text result, or for binary content a result that reports it without its bytes. */
export function textOutcome(
  bytes: Buffer,
  encoding: TextEncoding | "binary",
  truncated: boolean,
  range?: Range,
): ReadOutcome {
  const binary = encoding === "binary";
  return {
    ok: true,
    value: {
      encoding,
      content: binary ? "" : decodeText(bytes, encoding),
      ...(range === undefined ? {} : { range }),
      truncated,
      binary,
    },
  };
}

export function refusal(code: Code, explanation: string): ReadOutcome {
  return { ok: false, code, explanation };
}
