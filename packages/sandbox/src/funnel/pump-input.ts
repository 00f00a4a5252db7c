import type { Writable } from "node:stream";

/** What a child's stdin is fed: fixed bytes, or chunks as they arrive (a pipeline stage). */
export type StdinFeed = Uint8Array | AsyncIterable<Uint8Array>;

/**
 * Writes `feed` to a child's stdin with backpressure (waits for `drain`), then ends it.
 * Stops quietly once the child stops reading (`EPIPE`, its stdin closed).
 */
export async function pumpInput(stdin: Writable, feed: StdinFeed): Promise<void> {
  stdin.on("error", () => undefined);
  if (feed instanceof Uint8Array) {
    stdin.end(feed);
    return;
  }
  for await (const chunk of feed) {
    if (stdin.destroyed || stdin.writableEnded) return;
    if (!stdin.write(chunk)) {
      await new Promise<void>((resolve) => {
        const done = () => {
          stdin.off("drain", done);
          stdin.off("close", done);
          resolve();
        };
        stdin.once("drain", done);
        stdin.once("close", done);
      });
    }
  }
  if (!stdin.destroyed) stdin.end();
}
