// jsdom lacks these; the app calls them on navigation. (Files that run on a real server ask for
// `@vitest-environment node`, where there is no window.)
if (typeof window !== 'undefined') window.scrollTo = (() => {}) as typeof window.scrollTo;
// Chromium (129+) yields with scheduler.yield(), which jsdom lacks: without it the gateway falls back
// to setTimeout(0), and Apollo still loading as a test ends fires that timer into the page that is
// gone, a leak the watch below reports though the browser never sees it (branchChange's cancel path,
// eleventh session). Given here, before the watch starts, it is the browser's own and not the product's.
const g = globalThis as { scheduler?: { yield?: () => Promise<void> } };
if (!g.scheduler?.yield) {
  const realSetTimeout = setTimeout;
  g.scheduler = { ...g.scheduler, yield: () => new Promise<void>((resolve) => { realSetTimeout(resolve, 0); }) };
}
import { afterAll, afterEach } from 'vitest';
import { cleanup, configure } from '@testing-library/react';
import { startLeakWatch } from './leakWatch';

// The first render of a lazy chunk is transformed on demand, which can take seconds on a cold run, and
// tens of seconds on a loaded 2-core machine: 15 s failed the console's first render at load 28 (issue 28).
// A wait that is met returns at once; only a real failure waits this long.
configure({ asyncUtilTimeout: 30_000 });

// A test that leaves one of the product's timers or listeners behind fails by itself, naming the
// line that started it, instead of taking down the run minutes later in another file (issue 28).
// Hooks registered here run after the test file's own (vitest runs after-hooks in reverse order).
const leaks = startLeakWatch();
afterEach(async () => {
  cleanup(); // unmount what the test rendered: what it started must end with it
  await leaks.check();
});
afterAll(async () => { cleanup(); await leaks.check(); });
