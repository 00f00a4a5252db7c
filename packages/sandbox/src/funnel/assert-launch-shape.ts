import { ConfigurationError } from "@agent-bridle/core";
import type { StageStdio } from "./spawn-types.js";

export interface LaunchShape {
  readonly stages: readonly (readonly string[])[];
  readonly timeoutMs: number;
  readonly maxOutputBytes: number;
  readonly extraDescriptors?: readonly number[] | undefined;
  readonly stageStdio?: readonly (StageStdio | undefined)[] | undefined;
}

const isDescriptor = (fd: unknown) => Number.isSafeInteger(fd) && (fd as number) >= 0;

/** Programmer errors in a spawn request are thrown, never run (style §9.4). */
export function assertLaunchShape(request: LaunchShape): void {
  if (request.stages.length === 0 || request.stages.some((argv) => argv.length === 0)) {
    throw new ConfigurationError("a spawn needs at least one stage, each with a program");
  }
  if (!(Number.isFinite(request.timeoutMs) && request.timeoutMs > 0)) {
    throw new ConfigurationError("timeoutMs must be a positive number");
  }
  if (!(Number.isSafeInteger(request.maxOutputBytes) && request.maxOutputBytes >= 0)) {
    throw new ConfigurationError("maxOutputBytes must be a non-negative safe integer");
  }
  const stageFds = (request.stageStdio ?? []).flatMap((io) => [
    ...(io?.extraDescriptors ?? []),
    ...[io?.stdin, io?.stdout, io?.stderr].filter((fd) => typeof fd === "number"),
  ]);
  if (![...(request.extraDescriptors ?? []), ...stageFds].every(isDescriptor)) {
    throw new ConfigurationError("extraDescriptors and stageStdio must be descriptor numbers");
  }
  if ((request.stageStdio?.length ?? 0) > request.stages.length) {
    throw new ConfigurationError("stageStdio has more entries than there are stages");
  }
}
