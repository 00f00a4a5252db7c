/**
 * Background jobs (`cmd &`): each runs concurrently in a subshell with its own stop
 * signal. `wait` waits for them; when the script ends, jobs still running are stopped
 * (their programs killed, their next command refused) and awaited, so nothing a job
 * would still do happens after the run returns. No job control (`fg`, `bg`, `jobs`).
 */
import type { AndOr } from "@agent-bridle/bash";
import type { Builtin } from "../builtins/builtin-context.js";
import type { Interpreter } from "../interpreter.js";
import type { Fds } from "../io/io.js";

interface Job {
  readonly id: string;
  readonly done: Promise<number>;
  status: number | null;
}

/** The jobs of one run, shared by the shell and its subshells. */
export class Jobs {
  private readonly jobs: Job[] = [];
  private readonly stopper = new AbortController();
  private counter = 0;

  /** Aborts when the run ends (or the outer signal aborts). */
  get signal(): AbortSignal {
    return this.stopper.signal;
  }

  constructor(outer: AbortSignal | undefined) {
    if (outer?.aborted) this.stopper.abort();
    outer?.addEventListener("abort", () => this.stopper.abort(), { once: true });
  }

  /** True while a job has not finished yet. */
  get running(): boolean {
    return this.jobs.some((job) => job.status === null);
  }

  /** Start `andOr` in the background; its `$!`. */
  start(interpreter: Interpreter, andOr: AndOr, fds: Fds): string {
    this.counter += 1;
    const id = String(interpreter.state.pid + this.counter);
    const child = interpreter.forkJob(this.stopper.signal);
    const job: Job = {
      id,
      status: null,
      done: child
        .subshellRun(() => child.runAndOr(andOr, fds), fds)
        .catch(() => 1)
        .then((status) => {
          job.status = status;
          return status;
        }),
    };
    this.jobs.push(job);
    return id;
  }

  /** Wait for the job with `$!` `id` (its status; 127 when unknown), or all (0). */
  async wait(id?: string): Promise<number> {
    if (id !== undefined) {
      const job = this.jobs.find((candidate) => candidate.id === id);
      return job === undefined ? 127 : job.done;
    }
    await Promise.all(this.jobs.map((job) => job.done));
    return 0;
  }

  /** The run is over: stop what is still running and let it finish. */
  async stopAll(): Promise<void> {
    if (this.jobs.every((job) => job.status !== null)) return;
    this.stopper.abort();
    await Promise.all(this.jobs.map((job) => job.done));
  }
}

export const wait: Builtin = async (context, args) => {
  const jobs = context.interpreter.jobs;
  const ids = args.filter((arg) => !arg.startsWith("-"));
  if (ids.length === 0) return jobs.wait();
  let status = 0;
  for (const id of ids) {
    if (!/^[0-9]+$/.test(id)) {
      context.error(`wait: \`${id}': not a pid or valid job spec`);
      status = 2;
      continue;
    }
    status = await jobs.wait(id);
    if (status === 127) context.error(`wait: pid ${id} is not a child of this shell`);
  }
  return status;
};
