/**
 * The one job runner of the server's timed work (issue 25, "One job runner"): named jobs, run in
 * their order now and every `everyMs` until stopped, one round at a time per process. A job is a
 * scan of the rows whose time has come, each changed by a guarded write (the order lifecycle's
 * version check, a conditional update), so any number of processes run the same jobs and each
 * row's effect happens once; nothing is held in memory, so a restart finds the due rows again.
 * A job that handled a full batch (`batch`) runs again at once, in the same round. One job failing
 * is reported (`onError`) and the round goes on with the next: a broken fire time must not stop
 * the acceptance deadline.
 */
/** The most rows one run of a job handles (fire, auto-accept, acceptance deadline): a full batch runs again at once. */
export const JOB_BATCH = 50;

export interface Job {
  name: string;
  /** Handles what is due now; answers how many rows it handled (a full batch: more may be waiting). */
  run(now: Date): Promise<number>;
  /** The most rows one run handles (default: run once per round). */
  batch?: number;
}

export interface JobRunner { stop(): Promise<void> }

export function startJobRunner(jobs: Job[], opts: { everyMs: number; onError?: (err: unknown, job: string) => void }): JobRunner {
  let round: Promise<void> | null = null;
  let stopped = false;
  const tick = () => {
    if (stopped || round) return;
    round = (async () => {
      for (const job of jobs) {
        try {
          while (!stopped && (await job.run(new Date())) >= (job.batch ?? Infinity));
        } catch (err) {
          opts.onError?.(err, job.name);
        }
      }
    })().finally(() => { round = null; });
  };
  const timer = setInterval(tick, opts.everyMs);
  timer.unref();
  tick();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await round;
    },
  };
}
