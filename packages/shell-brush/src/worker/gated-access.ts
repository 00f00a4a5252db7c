/**
 * The interceptor (L2, spec §9): the `ShellAccess` the worker hands the interpreter.
 * Every open, listing, probe and command start is judged by the re-minted
 * `ToolContext` (core's judge, mediated opens and exec identity). A missing file is an
 * `errno`, not a denial.
 */
import type { BigIntStats } from "node:fs";
import { constants } from "node:fs";
import { type FileHandle, lstat, open, readdir, readlink, stat } from "node:fs/promises";
import {
  type Code,
  createDenial,
  type Denial,
  errnoOf,
  type GateOutcome,
  isFreeDevice,
  isNullDevice,
  removeDotSegments,
  type ToolContext,
} from "@agent-bridle/core";
import type { RedirectOpenMode, ShellAccess } from "../interpret/io/shell-access.js";
import { isPublicProgram, publicProgramBehind } from "./program-trees.js";

/**
 * The account databases: public runtime closure (the sandbox's `RUNTIME_READ_CLOSURE`,
 * kernel-boundary.md §3), readable by every program a call starts whatever `fs_read`
 * says, so the interpreter and its utilities (`ls -l` prints owner names) read them too.
 * Opened for reading only, not through a link. ADR 0015.
 */
const ACCOUNT_DATABASES = new Set(["/etc/passwd", "/etc/group"]);

/** Codes that are the system's answer (shown as the errno), not the policy's. */
const ERRNO_OF: Partial<Record<Code, string>> = {
  FS_NOT_FOUND: "ENOENT",
  FS_NOT_REGULAR: "EISDIR",
  FS_ALREADY_EXISTS: "EEXIST",
  FS_PATH_TOO_LONG: "ENAMETOOLONG",
  FS_LINK_LOOP: "ELOOP",
  FS_CHANGED_DURING_OPEN: "ENOENT",
  FS_CANNOT_RESOLVE: "EACCES",
};

/** `/dev/fd/…` and `/proc/{self,thread-self,N}/fd/…`, after lexical folding. */
export function isDescriptorPath(path: string): boolean {
  const folded = removeDotSegments(path);
  return (
    /^\/dev\/fd(\/|$)/.test(folded) || /^\/proc\/(self|thread-self|\d+)\/fd(\/|$)/.test(folded)
  );
}

const DESCRIPTOR_REASON = "raw process descriptor paths are reserved for private control";

async function attempt<T>(work: () => Promise<T>): Promise<GateOutcome<T>> {
  try {
    return { ok: true, value: await work() };
  } catch (error) {
    return { ok: false, errno: errnoOf(error) };
  }
}

/**
 * Policy refusals come back as `denial`s. The interpreter records each one it acts on
 * (its own PATH probes stay quiet), so the worker passes no `onDenial`; a gate used on
 * its own may pass one to see every refusal.
 */
export function createGatedAccess(
  cx: ToolContext,
  onDenial?: (denial: Denial) => void,
): ShellAccess {
  const refuse = (denial: Denial): GateOutcome<never> => {
    const errno = ERRNO_OF[denial.code];
    if (errno !== undefined) return { ok: false, errno };
    onDenial?.(denial);
    return { ok: false, denial };
  };
  const descriptorRefusal = (path: string) =>
    refuse(createDenial("open", path, "FS_BLOCKED", DESCRIPTOR_REASON));

  /** Judged for reading (listing, probing), then `work` on the judged path. */
  async function probe<T>(path: string, work: (path: string) => Promise<T>) {
    if (isDescriptorPath(path)) return descriptorRefusal(path);
    if (isFreeDevice(path)) return attempt(() => work(path));
    const judged = await cx.checkPathRead(path);
    if (!judged.ok) return refuse(judged.denial);
    return attempt(() => work(path));
  }

  async function openForWrite(
    path: string,
    mode: RedirectOpenMode,
  ): Promise<GateOutcome<FileHandle>> {
    if (isDescriptorPath(path)) return descriptorRefusal(path);
    if (isNullDevice(path)) return attempt(() => open(path, "w"));
    const opened = await cx.openPathWrite(path, {
      append: mode.append === true || mode.readWrite === true,
      exclusive: mode.exclusive === true,
    });
    return opened.ok ? { ok: true, value: opened.value.handle } : refuse(opened.denial);
  }

  return Object.freeze({
    async open(path: string): Promise<GateOutcome<FileHandle>> {
      if (isDescriptorPath(path)) return descriptorRefusal(path);
      if (isFreeDevice(path)) return attempt(() => open(path, "r"));
      if (ACCOUNT_DATABASES.has(path))
        return attempt(() => open(path, constants.O_RDONLY | constants.O_NOFOLLOW));
      const opened = await cx.openPathRead(path);
      return opened.ok ? { ok: true, value: opened.value.handle } : refuse(opened.denial);
    },
    openWrite: (path: string) => openForWrite(path, {}),
    openRedirect: openForWrite,
    stat: (path: string) => probe(path, (p): Promise<BigIntStats> => stat(p, { bigint: true })),
    lstat: (path: string) => probe(path, (p): Promise<BigIntStats> => lstat(p, { bigint: true })),
    readdir: (path: string) => probe(path, (p): Promise<readonly string[]> => readdir(p)),
    // Command resolution is not a read of the script's: a program in the system's
    // program trees (or an absolute program the exec grant names) is found although
    // fs_read does not reach it, and `checkExec` then admits or denies it (126,
    // "execution denied", as the reference). Anywhere else outside fs_read the read
    // denial stands, whether or not something is there (no existence oracle), and
    // blocked locations (credentials, agent configuration) stay unanswered.
    async statProgram(path: string): Promise<GateOutcome<BigIntStats>> {
      const readable = await probe(path, (p) => stat(p, { bigint: true }));
      if (readable.ok || !("denial" in readable)) return readable;
      const { code } = readable.denial;
      if (code === "FS_SYMLINK_ESCAPE") {
        const behind = await publicProgramBehind(cx, path);
        return behind === undefined ? readable : attempt(() => stat(behind, { bigint: true }));
      }
      if (code !== "FS_OUTSIDE_ALLOWED") return readable;
      if (!isPublicProgram(path, cx.caveats.exec)) return readable;
      return attempt(() => stat(path, { bigint: true }));
    },
    readlink: (path: string) => probe(path, (p) => readlink(p)),
    async checkExec(
      spelled: string,
      resolved: string,
      argv: readonly string[] = [spelled],
    ): Promise<GateOutcome<void>> {
      const decision = await cx.checkExec(
        resolved === spelled ? { spelled } : { spelled, resolved },
      );
      if (decision.ok) return { ok: true, value: undefined };
      // A program the interpreter refused to start reaches the host's audit hook as a
      // refused spawn, as one the funnel refuses does (issue 17 point 8).
      cx.audit.record({
        type: "spawn",
        tool: cx.toolName,
        argv: [...argv],
        decision: "denied",
        code: decision.denial.code,
      });
      return refuse(decision.denial);
    },
  });
}
