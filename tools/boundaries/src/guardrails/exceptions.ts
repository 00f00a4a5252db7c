import { readFile } from "node:fs/promises";
import path from "node:path";
import { manifestKeyLine } from "../manifest-line.js";

/** Where the allow-list lives, relative to the workspace root. */
export const EXCEPTIONS_FILE = "tools/boundaries/guardrail-exceptions.json";

/** A size exception: the size it has now is its ceiling, and why it is allowed. */
export interface SizeException {
  readonly lines: number;
  readonly reason: string;
}

/** A mutable public field allowed on a class of the interpreter, and why. */
export interface FieldException {
  readonly reason: string;
}

/**
 * The allow-list of the guardrails. Keys are workspace-relative paths (`file-length`),
 * `path:Qualified.name` (`function-length`) or `path:Class.field` (`mutable-field`).
 */
export interface GuardrailExceptions {
  readonly fileLength: ReadonlyMap<string, SizeException>;
  readonly functionLength: ReadonlyMap<string, SizeException>;
  readonly mutableField: ReadonlyMap<string, FieldException>;
  /** The line of `key` inside `section` of the file (1 when it is not there). */
  readonly lineOf: (section: ExceptionSection, key: string) => number;
}

export type ExceptionSection = "file-length" | "function-length" | "mutable-field";

/** The workspace's allow-list; a missing file allows nothing, a malformed one throws. */
export async function loadExceptions(root: string): Promise<GuardrailExceptions> {
  const text = await readFile(path.join(root, EXCEPTIONS_FILE), "utf8").catch(() => "{}");
  const data = JSON.parse(text) as Record<string, unknown>;
  return {
    fileLength: section(data, "file-length", true),
    functionLength: section(data, "function-length", true),
    mutableField: section(data, "mutable-field", false),
    lineOf: (name, key) => manifestKeyLine(text, key, name),
  };
}

function section(
  data: Record<string, unknown>,
  name: ExceptionSection,
  sized: boolean,
): Map<string, SizeException> {
  const entries = new Map<string, SizeException>();
  const value = data[name] ?? {};
  if (typeof value !== "object" || value === null) throw malformed(name, "is not an object");
  for (const [key, entry] of Object.entries(value)) {
    const { lines, reason } = (entry ?? {}) as { lines?: unknown; reason?: unknown };
    if (typeof reason !== "string" || reason.trim() === "") {
      throw malformed(`${name} ${key}`, "has no reason");
    }
    if (sized && (typeof lines !== "number" || !Number.isInteger(lines))) {
      throw malformed(`${name} ${key}`, "has no whole `lines` ceiling");
    }
    entries.set(key, { lines: sized ? (lines as number) : 0, reason });
  }
  return entries;
}

function malformed(where: string, what: string): Error {
  return new Error(`${EXCEPTIONS_FILE}: ${where} ${what}`);
}
