// @vitest-environment node
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The Stately inspector (`?inspect` in vite dev, scripts/viteInspect.ts) must not reach the
 * production bundle (issue 14). Reads dist/ as `npm run build` wrote it.
 */
const NEEDLES = ['stately.ai/inspect', '@statelyai.connected', 'inspectedXstateReact', 'createBrowserInspector'];

describe('production bundle', () => {
  it('the needles are the inspector\'s own code (so this test can fail)', () => {
    const inspector = readFileSync(path.resolve('node_modules/@statelyai/inspect/dist/index.mjs'), 'utf8');
    for (const needle of NEEDLES.slice(0, 2)) expect(inspector).toContain(needle);
  });

  it('dist/ contains no inspector code', () => {
    expect(existsSync('dist/index.html'), 'dist/ is missing: run npm run build first').toBe(true);
    const files = readdirSync('dist', { recursive: true }).map(String).filter((f) => /\.(js|html)$/.test(f));
    expect(files.filter((f) => f.endsWith('.js')).length).toBeGreaterThan(0);
    const found = files.flatMap((f) => {
      const text = readFileSync(path.join('dist', f), 'utf8');
      return NEEDLES.filter((needle) => text.includes(needle)).map((needle) => `${f}: ${needle}`);
    });
    expect(found).toEqual([]);
  });
});
