import { execFileSync } from "node:child_process";
import { createServer, type Server } from "node:net";

/** A FIFO at `location` (Node has no mkfifo; the system's is used). */
export function makeFifo(location: string): void {
  execFileSync("mkfifo", [location]);
}

/** A listening Unix socket at `location`; close the server when done. */
export async function makeSocket(location: string): Promise<Server> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(location, resolve));
  return server;
}
