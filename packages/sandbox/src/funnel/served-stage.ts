import type { Socket } from "node:net";
import { privateChannelChildEnd } from "../channel/private-channel.js";
import type { ServedSpawn } from "../spawn-server/spawn-server.js";
import type { LaunchRequest } from "./spawn-types.js";

/**
 * The single stage of `request` as a request to the spawn server (ADR 0023), or
 * `undefined` where it goes through `child_process`: more than one stage (the stages'
 * pipes are the host's), a descriptor of the host's other than a private channel (a
 * bare descriptor number cannot be handed over), a policy on a descriptor, or a proxy
 * channel (the launcher's IPC channel is its spawner's).
 */
export function servedStage(
  request: LaunchRequest,
  wrapped: readonly string[],
): ServedSpawn | undefined {
  const server = request.wrapper?.server;
  if (server === undefined || wrapped[0] !== server || request.stages.length !== 1) return;
  if (request.wrapper?.policyText !== undefined || request.netChannel !== undefined) return;
  const io = request.stageStdio?.[0] ?? {};
  if (request.stdin !== undefined || io.stdin !== undefined) return;
  if (typeof io.stdout === "number" || typeof io.stderr === "number") return;
  const descriptors: Socket[] = [];
  for (const fd of io.extraDescriptors ?? request.extraDescriptors ?? []) {
    const socket = privateChannelChildEnd(fd);
    if (socket === undefined) return;
    descriptors.push(socket);
  }
  const stdout = io.stdout === "closed" ? "c" : "p";
  // As the child_process path wires them: `2>&1` goes where stdout's default goes.
  const stderr =
    io.stderr === "closed" ? "c" : io.stderr === "stdout" && stdout === "p" ? "m" : "p";
  return {
    argv: wrapped,
    cwd: request.cwd,
    env: request.env,
    io: `n${stdout}${stderr}`,
    descriptors,
  };
}
