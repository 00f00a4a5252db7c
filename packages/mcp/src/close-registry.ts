import type { Registry } from "agent-bridle";

/** How long closing may hold the process open before it is left to the exit. */
const CLOSE_BOUND_MS = 10_000;

/**
 * Closes the registry while holding the event loop open, for a bounded time. The bash
 * engine keeps its idle warm worker off the event loop (so an idle worker never keeps a
 * process alive); closing kills it and waits for its tree to be reaped, which a process
 * with nothing else pending would not wait for: it would exit (or end a top-level await
 * unsettled) before `close()` settled.
 */
export async function closeRegistry(registry: Registry): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, CLOSE_BOUND_MS);
  });
  try {
    await Promise.race([registry.close(), bound]);
  } finally {
    clearTimeout(timer);
  }
}
