import { ConfigurationError } from "@agent-bridle/core";

export interface LaunchShape {
  readonly stages: readonly (readonly string[])[];
  readonly timeoutMs: number;
  readonly maxOutputBytes: number;
  readonly extraDescriptors?: readonly number[] | undefined;
}

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
  for (const fd of request.extraDescriptors ?? []) {
    if (!(Number.isSafeInteger(fd) && fd >= 0)) {
      throw new ConfigurationError("extraDescriptors must be descriptor numbers");
    }
  }
}
