import { runCarried } from "@agent-bridle/coreutils";
import type { StageStdio } from "@agent-bridle/sandbox";
import type { RunPlan } from "./stage-plan.js";

/** One stage as the funnel gets it. */
export interface FunnelStage {
  readonly argv: readonly string[];
  readonly stdio: StageStdio;
}

/**
 * Calls `launch` with the pipeline's stages, each carried utility replaced by the carried
 * entry (`node <entry> --invoke-bundled <name> …`, ADR 0007) with its own private
 * channel as that stage's descriptor 3 — one `runCarried` per carried stage, nested, so
 * every channel is open while the one funnel run of the whole pipeline lasts.
 */
export async function withCarriedChannels<T>(
  plans: readonly RunPlan[],
  launch: (stages: readonly FunnelStage[]) => Promise<T>,
): Promise<T> {
  const step = async (index: number, done: readonly FunnelStage[]): Promise<T> => {
    const plan = plans[index];
    if (plan === undefined) return launch(done);
    if (plan.carried === undefined) {
      return step(index + 1, [...done, { argv: plan.argv, stdio: plan.stdio }]);
    }
    const invocation = { name: plan.carried, argv: plan.argv.slice(1) };
    const run = await runCarried(invocation, (request) =>
      step(index + 1, [
        ...done,
        {
          argv: request.argv,
          stdio: { ...plan.stdio, extraDescriptors: request.extraDescriptors },
        },
      ]),
    );
    return run.outcome;
  };
  return step(0, []);
}
