import { describe, expect, it } from 'vitest';
import { startLeakWatch } from '../support/leakWatch';

/**
 * The suite's guard (tests/support/jsdomSetup.ts) fails a test that leaves a timer or a listener
 * of the product's running. Here a watch of this file's own calls shows that it names the line,
 * ends what it found, and passes what was ended in time.
 */
const THIS_FILE = /\/tests\/machines\/leakWatch\.test\.ts[^\s)]*:\d+:\d+/;

describe('leak watch', () => {
  it('names a timer, an interval and a listener left running, and ends them', async () => {
    const watch = startLeakWatch(THIS_FILE);
    let fired = 0;
    try {
      setTimeout(() => { fired++; }, 60_000);
      setInterval(() => { fired++; }, 60_000);
      window.addEventListener('resize', () => { fired++; });
      const error = await watch.check(0).then(() => null, (e: Error) => e);
      expect(error?.message).toMatch(/3 timer\(s\) or listener\(s\)/);
      expect(error?.message).toMatch(/setTimeout\(…, 60000\) at tests\/machines\/leakWatch\.test\.ts:\d+:\d+/);
      expect(error?.message).toMatch(/setInterval\(…, 60000\) at tests\/machines\/leakWatch\.test\.ts/);
      expect(error?.message).toMatch(/addEventListener\('resize'\) at tests\/machines\/leakWatch\.test\.ts/);
      window.dispatchEvent(new Event('resize'));
      expect(fired).toBe(0);
    } finally { watch.stop(); }
  });

  it('a timer that fires after the test ended is a leak; one cleared or an event listener removed is not', async () => {
    const watch = startLeakWatch(THIS_FILE);
    try {
      setTimeout(() => {}, 30);
      const error = await watch.check(2000).then(() => null, (e: Error) => e);
      expect(error?.message).toMatch(/setTimeout\(…, 30\)/);

      const timer = setTimeout(() => {}, 30);
      const onResize = () => {};
      window.addEventListener('resize', onResize);
      clearTimeout(timer);
      window.removeEventListener('resize', onResize);
      await expect(watch.check(0)).resolves.toBeUndefined();
    } finally { watch.stop(); }
  });

  it('work in flight that ends within the grace (a chunk load\'s time-out cleared with it) passes', async () => {
    const watch = startLeakWatch(THIS_FILE);
    try {
      const timeout = setTimeout(() => {}, 60_000);
      // the work it guards ends a moment later (setImmediate stands for a load; it is not watched)
      void new Promise((r) => setImmediate(r)).then(() => clearTimeout(timeout));
      await expect(watch.check(2000)).resolves.toBeUndefined();
    } finally { watch.stop(); }
  });
});
