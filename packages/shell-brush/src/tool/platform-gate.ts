import { ToolFailedError } from "@agent-bridle/core";

/**
 * Reference §5: the bash worker's private channel (a unix socket pair handed over as a
 * descriptor, the launcher's peer credentials) exists on Linux and macOS only. Elsewhere
 * every call fails closed, before anything starts; hosts pick the safe-subset engine.
 */
export function requirePrivateControlTransport(platform: NodeJS.Platform = process.platform): void {
  if (platform === "linux" || platform === "darwin") return;
  throw new ToolFailedError(
    `brush: no private-control transport for the bash worker on ${platform}; use the safe-subset engine`,
  );
}
