import type { Socket } from "node:net";
import { privateChannelChildEnd } from "../channel/private-channel.js";
import type { ServedSpawn } from "../spawn-server/spawn-server.js";
import type { LaunchRequest } from "./spawn-types.js";

/** A stage as the spawn server is asked to start it; `to` (the next stage) comes at spawn. */
export type ServedStage = Omit<ServedSpawn, "to">;

/**
 * Every stage of `request` as a request to the spawn server (ADR 0023), or `undefined`
 * where they go through `child_process`: a descriptor of the host's other than a private
 * channel on any stage (a bare descriptor number cannot be handed over), input from the
 * host, a policy on a descriptor, or a proxy channel (the launcher's IPC channel is its
 * spawner's). Between stages the server makes the pipe itself (a link, `l`): the bytes
 * never pass through the host.
 */
export function servedStages(
  request: LaunchRequest,
  wrapped: readonly (readonly string[])[],
): ServedStage[] | undefined {
  const server = request.wrapper?.server;
  if (server === undefined || request.wrapper?.policyText !== undefined) return;
  if (request.netChannel !== undefined || request.stdin !== undefined) return;
  const served: ServedStage[] = [];
  for (const [index, argv] of wrapped.entries()) {
    const stage = argv[0] === server ? servedStage(request, index, argv) : undefined;
    if (stage === undefined) return;
    served.push(stage);
  }
  return served;
}

function servedStage(
  request: LaunchRequest,
  index: number,
  argv: readonly string[],
): ServedStage | undefined {
  const io = request.stageStdio?.[index] ?? {};
  if (io.stdin !== undefined) return;
  if (typeof io.stdout === "number" || typeof io.stderr === "number") return;
  const descriptors: Socket[] = [];
  for (const fd of io.extraDescriptors ?? request.extraDescriptors ?? []) {
    const socket = privateChannelChildEnd(fd);
    if (socket === undefined) return;
    descriptors.push(socket);
  }
  // Where the stage's default stdout goes: the host (last stage) or the next stage.
  const flow = index === request.stages.length - 1 ? "p" : "l";
  const stdout = io.stdout === "closed" ? "c" : flow;
  // As the child_process path wires them: `2>&1` goes where stdout's default goes.
  const stderr =
    io.stderr === "closed" ? "c" : io.stderr === "stdout" ? (stdout === flow ? "m" : flow) : "p";
  return {
    argv,
    cwd: request.cwd,
    env: request.env,
    io: `${index === 0 ? "n" : "l"}${stdout}${stderr}`,
    descriptors,
  };
}
