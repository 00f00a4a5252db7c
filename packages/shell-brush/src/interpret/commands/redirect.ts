/**
 * Redirections. Every file target is opened through the interpreter's `ShellAccess`
 * (`<` with `open`; `>` `>>` `>|` `<>` `&>` with `openRedirect`, noclobber as
 * `exclusive`). `/dev/stdout`, `/dev/stderr`, `/dev/stdin` and `/dev/null` name the
 * shell's own streams and are never opened; neither are the interpreter's process
 * substitutions. Here-documents and here-strings are memory. `/dev/tcp/<host>/<port>` is
 * a connection (dev-tcp.ts), through the call's egress proxy under a host allow-list.
 */

import { encodeShellText, type Redirect } from "@agent-bridle/bash";
import { isNullDevice, refusalText } from "@agent-bridle/core";
import type { ExecContext } from "../exec-context.js";
import {
  type DevTcpTarget,
  devTcpTarget,
  openDevTcp,
  readAll,
  SocketChannel,
  SocketSink,
} from "../io/dev-tcp.js";
import { readAndClose } from "../io/gate.js";
import { type Channel, type Fds, FileSink, InputSource, nullSink } from "../io/io.js";
import { resolvePath } from "../io/paths.js";
import type { RedirectOpenMode } from "../io/shell-access.js";

/** What a redirection opened and the command's end closes: a file, a `/dev/tcp` connection. */
interface Closable {
  close(): Promise<void>;
}

export interface AppliedRedirects {
  readonly fds: Fds;
  /** Files and connections this set of redirections opened (closed when the command ends). */
  readonly close: Closable[];
}

const EMPTY = new Uint8Array();

async function heredocText(interpreter: ExecContext, redirect: Redirect): Promise<string> {
  const heredoc = redirect.heredoc;
  if (heredoc === null) return "";
  if (heredoc.quoted)
    return heredoc.body.parts.map((part) => ("value" in part ? part.value : "")).join("");
  return interpreter.expander.quotedString(heredoc.body.parts);
}

/** A file redirection; false when it failed (already reported). */
async function openTarget(
  interpreter: ExecContext,
  redirect: Redirect,
  fd: number,
  target: string,
  fds: Fds,
  next: Fds,
  close: Closable[],
): Promise<boolean> {
  const operator = redirect.operator;
  const both =
    operator === "&>" || operator === "&>>" || (operator === ">&" && redirect.fd === null);
  const assign = (channel: Channel): void => {
    next.set(fd, channel);
    if (both) next.set(2, channel);
  };
  const path = resolvePath(interpreter.state.cwd, target);
  const reading = operator === "<" || (operator === "<>" && fd === 0);
  const substitution = interpreter.substitutions.get(path);
  if (substitution !== undefined) {
    if (reading)
      next.set(fd, new InputSource(substitution.direction === "<" ? substitution.data : EMPTY));
    else assign(substitution.direction === ">" ? substitution.sink : nullSink);
    return true;
  }
  if (isNullDevice(path)) {
    if (reading) next.set(fd, new InputSource(EMPTY));
    else assign(nullSink);
    return true;
  }
  const tcp = devTcpTarget(path);
  if (tcp !== undefined)
    return openTcpTarget(
      interpreter,
      tcp,
      { target, fd, reading, both: operator === "<>" },
      fds,
      assign,
      next,
      close,
    );
  const own = { "/dev/stdin": 0, "/dev/stdout": 1, "/dev/stderr": 2 }[path];
  if (own !== undefined) {
    const channel = fds.get(own);
    if (channel !== undefined) assign(channel);
    return true;
  }
  if (operator === "<") {
    const opened = await interpreter.access.open(path);
    if (!opened.ok) {
      interpreter.error(fds, `${target}: ${refusalText(opened)}`);
      return false;
    }
    next.set(fd, new InputSource(await readAndClose(opened.value)));
    return true;
  }
  const exclusive =
    interpreter.state.options.noclobber && (operator === ">" || operator === "&>" || both);
  const mode: RedirectOpenMode = {
    append: operator === ">>" || operator === "&>>",
    exclusive,
    readWrite: operator === "<>",
  };
  const opened = await interpreter.access.openRedirect(path, mode);
  if (!opened.ok) {
    const exists = exclusive && "errno" in opened && opened.errno === "EEXIST";
    interpreter.error(
      fds,
      `${target}: ${exists ? "cannot overwrite existing file" : refusalText(opened)}`,
    );
    return false;
  }
  if (reading) {
    next.set(fd, new InputSource(await readAndClose(opened.value)));
    return true;
  }
  const sink = new FileSink(opened.value, interpreter.writeMeter);
  close.push(sink);
  assign(sink);
  return true;
}

/**
 * `/dev/tcp/<host>/<port>` (dev-tcp.ts): `<` reads until the peer closes, `>` writes to
 * it, `<>` is the connection both ways.
 */
async function openTcpTarget(
  interpreter: ExecContext,
  tcp: DevTcpTarget,
  how: { target: string; fd: number; reading: boolean; both: boolean },
  fds: Fds,
  assign: (channel: Channel) => void,
  next: Fds,
  close: Closable[],
): Promise<boolean> {
  const opened = await openDevTcp(tcp);
  if (!opened.ok) {
    interpreter.error(fds, `${how.target}: ${opened.message}`);
    return false;
  }
  if (how.both) {
    const channel = new SocketChannel(opened.socket, opened.early);
    close.push(channel);
    next.set(how.fd, channel);
    return true;
  }
  if (how.reading) {
    next.set(how.fd, new InputSource(await readAll(opened.socket, opened.early)));
    return true;
  }
  const sink = new SocketSink(opened.socket);
  close.push(sink);
  assign(sink);
  return true;
}

/** Apply `redirects` over `fds`; null when one failed (reported, nothing left open). */
export async function applyRedirects(
  interpreter: ExecContext,
  redirects: readonly Redirect[],
  fds: Fds,
): Promise<AppliedRedirects | null> {
  if (redirects.length === 0) return { fds, close: [] };
  const next: Fds = new Map(fds);
  const close: Closable[] = [];
  const fail = async (): Promise<null> => {
    for (const sink of close) await sink.close();
    return null;
  };
  for (const redirect of redirects) {
    const fd = redirect.fd ?? (redirect.operator.startsWith("<") ? 0 : 1);
    if (redirect.operator === "<<" || redirect.operator === "<<-") {
      const text = await heredocText(interpreter, redirect);
      next.set(fd, new InputSource(encodeShellText(text)));
      continue;
    }
    if (redirect.operator === "<<<") {
      const text = await interpreter.expander.string(redirect.target);
      next.set(fd, new InputSource(encodeShellText(`${text}\n`)));
      continue;
    }
    const target = await interpreter.expander.string(redirect.target);
    if (redirect.operator === ">&" || redirect.operator === "<&") {
      if (target === "-") {
        next.delete(fd);
        continue;
      }
      if (/^[0-9]+$/.test(target)) {
        const channel = next.get(Number(target));
        if (channel === undefined) {
          interpreter.error(fds, `${target}: Bad file descriptor`);
          return fail();
        }
        next.set(fd, channel);
        continue;
      }
      if (redirect.operator === "<&" || redirect.fd !== null) {
        interpreter.error(fds, `${target}: ambiguous redirect`);
        return fail();
      }
    }
    if (target === "") {
      interpreter.error(fds, ": No such file or directory");
      return fail();
    }
    if (!(await openTarget(interpreter, redirect, fd, target, fds, next, close))) return fail();
  }
  return { fds: next, close };
}

/** Run `body` with `redirects` in force; status 1 when they fail. */
export async function withRedirects(
  interpreter: ExecContext,
  redirects: readonly Redirect[],
  fds: Fds,
  body: (fds: Fds) => Promise<number>,
): Promise<number> {
  const applied = await applyRedirects(interpreter, redirects, fds);
  if (applied === null) return 1;
  const saved = interpreter.currentFds;
  interpreter.currentFds = applied.fds;
  try {
    return await body(applied.fds);
  } finally {
    interpreter.currentFds = saved;
    for (const sink of applied.close) await sink.close();
  }
}
