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
/** The `_meta` key of a heartbeat: the seconds the call has run. */
export const PROGRESS_HEARTBEAT_META_KEY = "agent-bridle/heartbeat";
/** A call silent this long gets a heartbeat (below the usual 60 s client timeout). */
export const DEFAULT_HEARTBEAT_MS = 10_000;

export interface ProgressNotification {
  readonly method: "notifications/progress";
  readonly params: {
    readonly progressToken: string | number;
    readonly progress: number;
    readonly message: string;
    readonly _meta:
      | { readonly [PROGRESS_STREAM_META_KEY]: ShellOutputStream }
      | { readonly [PROGRESS_HEARTBEAT_META_KEY]: number };
  };
}

export interface ProgressStreamOptions {
  readonly token: string | number;
  /** Sends one notification (the SDK's `extra.sendNotification`); rejections are ignored. */
  readonly send: (notification: ProgressNotification) => Promise<void>;
  readonly intervalMs?: number | undefined;
  readonly maxMessageChars?: number | undefined;
  readonly maxBacklogBytes?: number | undefined;
  /**
   * After this long without a notification, a heartbeat is sent (its text says how long
   * the call has run, its `_meta` the seconds; no stream), so a client that resets its timeout on progress keeps
   * waiting for a silent long call. Default 10 s.
   */
  readonly heartbeatMs?: number | undefined;
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
 * A call silent for `heartbeatMs` gets a heartbeat, which counts one towards `progress`.
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
  const heartbeatMs = options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS;
  const startedAt = performance.now();
  let lastSentAt = startedAt;
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
        lastSentAt = performance.now();
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

  // `progress` must increase with every notification: a heartbeat counts one.
  const beat = (): void => {
    if (stopped || performance.now() - lastSentAt < heartbeatMs) return;
    lastSentAt = performance.now();
    sentBytes += 1;
    const seconds = Math.round((lastSentAt - startedAt) / 1000);
    const notification: ProgressNotification = {
      method: "notifications/progress",
      params: {
        progressToken: options.token,
        progress: sentBytes,
        message: `still running after ${seconds} s`,
        _meta: { [PROGRESS_HEARTBEAT_META_KEY]: seconds },
      },
    };
    sending = sending
      .then(() => (stopped ? undefined : options.send(notification)))
      .catch(() => {});
  };
  const heartbeat = setInterval(beat, Math.max(10, Math.floor(heartbeatMs / 4)));
  heartbeat.unref();

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
      clearInterval(heartbeat);
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
      clearInterval(heartbeat);
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
