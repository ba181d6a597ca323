import { describe, expect, it } from 'vitest';
import { startJobRunner } from '../../server/jobs/runner';

/** The one job runner (issue 25): named jobs in order, one round at a time, a full batch again at once, a failing job reported without stopping the others. */
describe('startJobRunner', () => {
  it('runs the jobs in order; a full batch runs again in the same round; a failure is reported and the round goes on', async () => {
    const ran: string[] = [];
    const errors: string[] = [];
    let due = 5;
    const runner = startJobRunner([
      { name: 'failing', run: async () => { ran.push('failing'); throw new Error('broken'); } },
      // Two rows a run: 2, 2, 1 → three runs, the last not a full batch.
      { name: 'batched', batch: 2, run: async () => { ran.push('batched'); const n = Math.min(2, due); due -= n; return n; } },
      { name: 'last', run: async () => { ran.push('last'); return 0; } },
    ], { everyMs: 60_000, onError: (err, job) => errors.push(`${job}: ${(err as Error).message}`) });
    while (!ran.includes('last')) await new Promise((r) => setTimeout(r, 5));
    await runner.stop();
    expect(ran).toEqual(['failing', 'batched', 'batched', 'batched', 'last']);
    expect(errors).toEqual(['failing: broken']);
  });

  it('stops between jobs: nothing runs after stop', async () => {
    const ran: string[] = [];
    const runner = startJobRunner([
      { name: 'first', run: async () => { ran.push('first'); await new Promise((r) => setTimeout(r, 30)); return 0; } },
      { name: 'second', run: async () => { ran.push('second'); return 0; } },
    ], { everyMs: 60_000 });
    await runner.stop();
    expect(ran).toEqual(['first']);
  });

  it('never starts a round while one is running', async () => {
    let running = 0;
    let most = 0;
    const runner = startJobRunner([{
      name: 'slow',
      run: async () => { running++; most = Math.max(most, running); await new Promise((r) => setTimeout(r, 60)); running--; return 0; },
    }], { everyMs: 10 });
    await new Promise((r) => setTimeout(r, 200));
    await runner.stop();
    expect(most).toBe(1);
  });
});
