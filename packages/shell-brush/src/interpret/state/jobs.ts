/**
 * Background jobs (`cmd &`): each runs concurrently in a subshell with its own stop
 * signal. `wait` waits for them; when the script ends, jobs still running are stopped
 * (their programs killed, their next command refused) and awaited, so nothing a job
 * would still do happens after the run returns. No job control (`fg`, `bg`, `jobs`).
 */

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

  /**
   * Start a job in the background: `run` gets the signal that stops it (the run's end);
   * its `$!` is the shell's `pid` plus the job's number.
   */
  start(pid: number, run: (signal: AbortSignal) => Promise<number>): string {
    this.counter += 1;
    const id = String(pid + this.counter);
    const job: Job = {
      id,
      status: null,
      done: run(this.stopper.signal)
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
