import path from 'node:path';
import type { Plugin } from 'vite';

const SHIM = path.resolve('src/dev/inspectedXstateReact.ts');

/**
 * `vite dev` only (`apply: 'serve'`): the app's imports of '@xstate/react' resolve to
 * src/dev/inspectedXstateReact.ts, which hands the Stately inspector to every machine when the page
 * is opened with `?inspect`. `vite build` never runs this plugin, so dist/ has no inspector code
 * (tests/machines/inspector-absent.test.ts checks it).
 */
export function inspectInDev(): Plugin {
  return {
    name: 'brewops-inspect-in-dev',
    apply: 'serve',
    enforce: 'pre',
    resolveId(source, importer) {
      if (source !== '@xstate/react' || !importer || path.resolve(importer.split('?')[0]) === SHIM) return null;
      return SHIM;
    },
  };
}
