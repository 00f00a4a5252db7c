/**
 * The interpreter's view of its `ShellAccess`: every refusal by policy is reported to the
 * host's `onDenial` once, and the interpreter's own process substitutions (`/dev/fd/N`
 * paths it handed out itself) are served from memory without asking the gate.
 */
import type { BigIntStats } from "node:fs";
import type { FileHandle } from "node:fs/promises";
import type { Denial, GateOutcome } from "@agent-bridle/core";
import type { ShellAccess } from "./shell-access.js";

/** Bytes an in-memory descriptor serves, by path (the process-substitution table). */
export interface MemoryFiles {
  input(path: string): Uint8Array | undefined;
}

/**
 * A read-only handle over bytes: the subset of `FileHandle` the interpreter and the
 * coreutils read through (`read`, `readFile`, `close`).
 */
export function memoryHandle(data: Uint8Array): FileHandle {
  let position = 0;
  const handle = {
    fd: -1,
    async read(buffer: Uint8Array, offset = 0, length = buffer.length - offset) {
      const count = Math.max(0, Math.min(length, data.length - position));
      buffer.set(data.subarray(position, position + count), offset);
      position += count;
      return { bytesRead: count, buffer };
    },
    async readFile() {
      const rest = Buffer.from(data.subarray(position));
      position = data.length;
      return rest;
    },
    async close() {},
  };
  return handle as unknown as FileHandle;
}

/** A memory descriptor stats as a pipe (as `/dev/fd/63` does in bash). */
function pipeStats(): BigIntStats {
  const no = () => false;
  return {
    isFile: no,
    isDirectory: no,
    isSymbolicLink: no,
    isBlockDevice: no,
    isCharacterDevice: no,
    isSocket: no,
    isFIFO: () => true,
    size: 0n,
    mode: 0o10600n,
    ino: 0n,
    dev: 0n,
    mtimeMs: 0n,
    mtimeNs: 0n,
  } as unknown as BigIntStats;
}

/** Everything left in a handle, then closed. */
export async function readAndClose(handle: FileHandle): Promise<Buffer> {
  try {
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

function recorded<T>(
  outcome: Promise<GateOutcome<T>>,
  onDenial: (denial: Denial) => void,
): Promise<GateOutcome<T>> {
  return outcome.then((result) => {
    if (!result.ok && "denial" in result) onDenial(result.denial);
    return result;
  });
}

/**
 * `access` with the interpreter's own memory files served and nothing recorded: what the
 * in-process utilities get, which record each refusal they act on themselves
 * (`IoContext.onDenial`), and withhold what they list but may not look at.
 */
export function servingAccess(access: ShellAccess, memory: MemoryFiles): ShellAccess {
  return recordingAccess(access, () => undefined, memory);
}

/** `access` with denials recorded and the interpreter's own memory files served. */
export function recordingAccess(
  access: ShellAccess,
  onDenial: (denial: Denial) => void,
  memory: MemoryFiles,
): ShellAccess {
  return {
    open: (path) => {
      const data = memory.input(path);
      if (data !== undefined) return Promise.resolve({ ok: true, value: memoryHandle(data) });
      return recorded(access.open(path), onDenial);
    },
    openWrite: (path) => recorded(access.openWrite(path), onDenial),
    stat: (path) =>
      memory.input(path) === undefined
        ? recorded(access.stat(path), onDenial)
        : Promise.resolve({ ok: true, value: pipeStats() }),
    lstat: (path) =>
      memory.input(path) === undefined
        ? recorded(access.lstat(path), onDenial)
        : Promise.resolve({ ok: true, value: pipeStats() }),
    statProgram: (path) => recorded(access.statProgram(path), onDenial),
    readdir: (path) => recorded(access.readdir(path), onDenial),
    readlink: (path) => recorded(access.readlink(path), onDenial),
    checkExec: (spelled, resolved, argv) =>
      recorded(access.checkExec(spelled, resolved, argv), onDenial),
    openRedirect: (path, mode) => recorded(access.openRedirect(path, mode), onDenial),
  };
}
