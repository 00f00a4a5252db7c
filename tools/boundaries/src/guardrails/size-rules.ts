import type { Violation } from "../violation.js";
import { EXCEPTIONS_FILE, type GuardrailExceptions, type SizeException } from "./exceptions.js";
import type { MeasuredFunction } from "./measure-functions.js";

/** The longest a source file may be, in lines. */
export const FILE_LINE_LIMIT = 500;
/** The longest a function may be, in lines. */
export const FUNCTION_LINE_LIMIT = 80;

/** One shipped or tool source file, measured. */
export interface MeasuredFile {
  /** Workspace-relative, forward slashes. */
  readonly file: string;
  readonly lines: number;
  readonly functions: readonly MeasuredFunction[];
}

export interface SizeReport {
  readonly violations: readonly Violation[];
  readonly filesOver: number;
  readonly functionsOver: number;
  readonly functions: number;
}

const HOW_TO_LIST =
  `or, if it cannot be split yet, list it in ${EXCEPTIONS_FILE} with the reason and its ` +
  "present size as the ceiling";

/**
 * Files over {@link FILE_LINE_LIMIT} lines and functions over {@link FUNCTION_LINE_LIMIT}
 * fail unless listed; a listed one fails when it grows past its ceiling, and an entry
 * fails when its file or function is gone, within the limit, or smaller than its ceiling
 * (so the list only shrinks).
 */
export function checkSizes(
  files: readonly MeasuredFile[],
  exceptions: GuardrailExceptions,
): SizeReport {
  const violations: Violation[] = [];
  const fileSizes = new Map<string, number>();
  const functionSizes = new Map<string, number>();
  let filesOver = 0;
  let functionsOver = 0;
  for (const measured of files) {
    fileSizes.set(measured.file, measured.lines);
    if (measured.lines > FILE_LINE_LIMIT) filesOver += 1;
    const listed = exceptions.fileLength.get(measured.file);
    const problem = sizeProblem("file", measured.file, measured.lines, FILE_LINE_LIMIT, listed);
    if (problem !== undefined) violations.push({ file: measured.file, line: 1, ...problem });
    for (const fn of measured.functions) {
      const key = `${measured.file}:${fn.name}`;
      functionSizes.set(key, fn.lines);
      if (fn.lines > FUNCTION_LINE_LIMIT) functionsOver += 1;
      const entry = exceptions.functionLength.get(key);
      const found = sizeProblem("function", key, fn.lines, FUNCTION_LINE_LIMIT, entry);
      if (found !== undefined) violations.push({ file: measured.file, line: fn.line, ...found });
    }
  }
  violations.push(
    ...staleEntries("file-length", exceptions.fileLength, fileSizes, FILE_LINE_LIMIT, exceptions),
    ...staleEntries(
      "function-length",
      exceptions.functionLength,
      functionSizes,
      FUNCTION_LINE_LIMIT,
      exceptions,
    ),
  );
  const functions = [...functionSizes.keys()].length;
  return { violations, filesOver, functionsOver, functions };
}

function sizeProblem(
  what: "file" | "function",
  key: string,
  lines: number,
  limit: number,
  listed: SizeException | undefined,
): Pick<Violation, "rule" | "message"> | undefined {
  const rule = what === "file" ? "file-length" : "function-length";
  if (listed === undefined) {
    if (lines <= limit) return undefined;
    const fix = what === "file" ? "split it by concept" : "split it into named steps";
    return {
      rule,
      message: `${key} has ${lines} lines, over the ${limit}-line limit: ${fix}, ${HOW_TO_LIST}`,
    };
  }
  if (lines <= listed.lines) return undefined;
  return {
    rule,
    message:
      `${key} has ${lines} lines, over its listed ceiling of ${listed.lines} ` +
      `(${EXCEPTIONS_FILE}): a listed exception may not grow; shorten it`,
  };
}

/** Entries whose file or function no longer needs them, or whose ceiling is above its size. */
function staleEntries(
  section: "file-length" | "function-length",
  listed: ReadonlyMap<string, SizeException>,
  sizes: ReadonlyMap<string, number>,
  limit: number,
  exceptions: GuardrailExceptions,
): Violation[] {
  const violations: Violation[] = [];
  for (const [key, entry] of listed) {
    const lines = sizes.get(key);
    let problem: string | undefined;
    if (lines === undefined) problem = "is gone (moved, renamed or deleted): remove its entry";
    else if (lines <= limit) problem = `is within the ${limit}-line limit now: remove its entry`;
    else if (lines < entry.lines)
      problem = `has shrunk to ${lines} lines: lower its ceiling to ${lines}`;
    if (problem === undefined) continue;
    violations.push({
      file: EXCEPTIONS_FILE,
      line: exceptions.lineOf(section, key),
      rule: "stale-exception",
      message: `${section} exception ${key} (ceiling ${entry.lines}) ${problem}`,
    });
  }
  return violations;
}
