import { TextDecoder } from "node:util";
import type { ShellOutputObserver } from "agent-bridle";

type ShellOutputStream = "stdout" | "stderr";

/** The `_meta` key naming which stream a progress message's text came from. */
export const PROGRESS_STREAM_META_KEY = "agent-bridle/stream";
/** Output is coalesced for this long before it is sent. */
export const DEFAULT_PROGRESS_INTERVAL_MS = 50;
/** Text per notification, at most (UTF-16 code units, cut between code points). */
export const DEFAULT_PROGRESS_MESSAGE_CHARS = 16 * 1024;
/** Output taken but not yet written to the client; beyond it progress drops output. */
export const DEFAULT_PROGRESS_BACKLOG_BYTES = 1024 * 1024;

export interface ProgressNotification {
  readonly method: "notifications/progress";
  readonly params: {
    readonly progressToken: string | number;
    readonly progress: number;
    readonly message: string;
    readonly _meta: { readonly [PROGRESS_STREAM_META_KEY]: ShellOutputStream };
  };
}

export interface ProgressStreamOptions {
  readonly token: string | number;
  /** Sends one notification (the SDK's `extra.sendNotification`); rejections are ignored. */
  readonly send: (notification: ProgressNotification) => Promise<void>;
  readonly intervalMs?: number | undefined;
  readonly maxMessageChars?: number | undefined;
  readonly maxBacklogBytes?: number | undefined;
}

/** One `tools/call`'s live output, sent as MCP progress notifications with its token. */
export interface ProgressStream {
  /** The per-call observer to dispatch with. Never blocks the engine's delivery queue. */
  readonly observer: ShellOutputObserver;
  /** Sends what is buffered, waits until every notification was written, then stops. */
  close(): Promise<void>;
  /** Stops without sending what is buffered (the call was cancelled). */
  discard(): void;
}

interface Segment {
  readonly stream: ShellOutputStream;
  text: string;
}

/**
 * Live output as `notifications/progress` (MCP basic/utilities/progress): each message is
 * the next piece of one stream's text (named in `_meta["agent-bridle/stream"]`), in the
 * order read per stream, and `progress` is the number of output bytes sent so far, so it
 * increases with every notification. Chunks are coalesced for `intervalMs` and sent in
 * order, one notification per run of one stream, each at most `maxMessageChars`. Memory is
 * bounded: once `maxBacklogBytes` of output is taken but not yet written (a client that
 * does not read), further output is left out of progress. The result stays authoritative.
 */
export function createProgressStream(options: ProgressStreamOptions): ProgressStream {
  const intervalMs = options.intervalMs ?? DEFAULT_PROGRESS_INTERVAL_MS;
  const maxMessageChars = options.maxMessageChars ?? DEFAULT_PROGRESS_MESSAGE_CHARS;
  const maxBacklogBytes = options.maxBacklogBytes ?? DEFAULT_PROGRESS_BACKLOG_BYTES;
  const decoders: Record<ShellOutputStream, TextDecoder> = {
    stdout: new TextDecoder(),
    stderr: new TextDecoder(),
  };
  let segments: Segment[] = [];
  let pendingChars = 0;
  let backlogBytes = 0;
  let sentBytes = 0;
  let timer: NodeJS.Timeout | undefined;
  let sending: Promise<void> = Promise.resolve();
  // Taking output ends at close, on discard, or for good once the backlog would overflow
  // (so progress never has holes); sending ends at discard.
  let taking = true;
  let stopped = false;

  const append = (stream: ShellOutputStream, text: string): void => {
    if (text === "") return;
    backlogBytes += Buffer.byteLength(text, "utf8");
    const last = segments.at(-1);
    if (last !== undefined && last.stream === stream) last.text += text;
    else segments.push({ stream, text });
    pendingChars += text.length;
  };

  const flush = (): void => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    const taken = segments;
    segments = [];
    pendingChars = 0;
    for (const { stream, text } of taken) {
      for (const piece of pieces(text, maxMessageChars)) {
        const bytes = Buffer.byteLength(piece, "utf8");
        sentBytes += bytes;
        const notification: ProgressNotification = {
          method: "notifications/progress",
          params: {
            progressToken: options.token,
            progress: sentBytes,
            message: piece,
            _meta: { [PROGRESS_STREAM_META_KEY]: stream },
          },
        };
        // One chain keeps the notifications in order; the backlog shrinks as each is written.
        sending = sending
          .then(() => (stopped ? undefined : options.send(notification)))
          .catch(() => {})
          .finally(() => {
            backlogBytes -= bytes;
          });
      }
    }
  };

  const observer: ShellOutputObserver = (_id, stream, chunk) => {
    if (!taking) return;
    const text = decoders[stream].decode(chunk, { stream: true });
    if (backlogBytes + Buffer.byteLength(text, "utf8") > maxBacklogBytes) {
      taking = false;
      return;
    }
    append(stream, text);
    if (pendingChars >= maxMessageChars) flush();
    else timer ??= setTimeout(flush, intervalMs);
  };

  return {
    observer,
    async close() {
      if (taking) {
        taking = false;
        for (const stream of ["stdout", "stderr"] as const) {
          append(stream, decoders[stream].decode());
        }
      }
      if (!stopped) flush();
      await sending;
      stopped = true;
    },
    discard() {
      taking = false;
      stopped = true;
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      segments = [];
    },
  };
}

/** `text` cut into pieces of at most `size` code units, never inside a surrogate pair. */
function pieces(text: string, size: number): string[] {
  const out: string[] = [];
  let start = 0;
  while (text.length - start > size) {
    let end = start + size;
    const before = text.charCodeAt(end - 1);
    if (before >= 0xd800 && before <= 0xdbff && end - 1 > start) end -= 1;
    out.push(text.slice(start, end));
    start = end;
  }
  if (start < text.length) out.push(text.slice(start));
  return out;
}
