/**
 * The file probes of `test`, `[` and `[[ … ]]` (`-e -f -d -L -nt -ef` …). Each goes
 * through the gate (`stat`, `lstat`); a refused probe is false, as an unreachable file is.
 */
import type { BigIntStats } from "node:fs";
import { sameFile } from "@agent-bridle/core";
import type { ExecContext } from "../exec-context.js";
import { resolvePath } from "../io/paths.js";

async function statOf(
  interpreter: ExecContext,
  operand: string,
  link = false,
): Promise<BigIntStats | undefined> {
  const path = resolvePath(interpreter.state.cwd, operand);
  const outcome = link ? await interpreter.access.lstat(path) : await interpreter.access.stat(path);
  return outcome.ok ? outcome.value : undefined;
}

/** The unary file operators; false for any other operator. */
export async function fileTest(
  interpreter: ExecContext,
  operator: string,
  operand: string,
): Promise<boolean> {
  if (operand === "") return false;
  if (operator === "-L" || operator === "-h")
    return (await statOf(interpreter, operand, true))?.isSymbolicLink() ?? false;
  const stat = await statOf(interpreter, operand);
  switch (operator) {
    case "-e":
    case "-a":
      return stat !== undefined;
    case "-f":
      return stat?.isFile() ?? false;
    case "-d":
      return stat?.isDirectory() ?? false;
    case "-s":
      return (stat?.size ?? 0n) > 0n;
    case "-r":
    case "-w":
      return stat !== undefined;
    case "-x":
      return stat !== undefined && (stat.mode & 0o111n) !== 0n;
    case "-p":
      return stat?.isFIFO() ?? false;
    case "-S":
      return stat?.isSocket() ?? false;
    case "-b":
      return stat?.isBlockDevice() ?? false;
    case "-c":
      return stat?.isCharacterDevice() ?? false;
    case "-u":
      return stat !== undefined && (stat.mode & 0o4000n) !== 0n;
    case "-g":
      return stat !== undefined && (stat.mode & 0o2000n) !== 0n;
    case "-k":
      return stat !== undefined && (stat.mode & 0o1000n) !== 0n;
    case "-O":
    case "-G":
      return stat !== undefined;
    case "-N":
      return stat !== undefined && stat.mtimeNs > stat.atimeNs;
    default:
      return false;
  }
}

const BINARY = new Set([
  "=",
  "==",
  "!=",
  "<",
  ">",
  "-eq",
  "-ne",
  "-lt",
  "-le",
  "-gt",
  "-ge",
  "-nt",
  "-ot",
  "-ef",
]);

/** True for the binary operators `test` knows. */
export function isBinaryOperator(op: string): boolean {
  return BINARY.has(op);
}

function integer(text: string): bigint {
  return BigInt(text.trim() === "" ? "0" : text.trim());
}

/** Binary `test` operators (the caller checked `isBinaryOperator`). */
export async function testBinary(
  interpreter: ExecContext,
  op: string,
  left: string,
  right: string,
): Promise<boolean> {
  switch (op) {
    case "=":
    case "==":
      return left === right;
    case "!=":
      return left !== right;
    case "<":
      return left < right;
    case ">":
      return left > right;
    case "-eq":
      return integer(left) === integer(right);
    case "-ne":
      return integer(left) !== integer(right);
    case "-lt":
      return integer(left) < integer(right);
    case "-le":
      return integer(left) <= integer(right);
    case "-gt":
      return integer(left) > integer(right);
    case "-ge":
      return integer(left) >= integer(right);
    case "-nt":
    case "-ot": {
      const a = await statOf(interpreter, left);
      const b = await statOf(interpreter, right);
      if (op === "-nt") return a !== undefined && (b === undefined || a.mtimeNs > b.mtimeNs);
      return b !== undefined && (a === undefined || a.mtimeNs < b.mtimeNs);
    }
    case "-ef": {
      const a = await statOf(interpreter, left);
      const b = await statOf(interpreter, right);
      return a !== undefined && b !== undefined && sameFile(a, b);
    }
    default:
      return false;
  }
}
