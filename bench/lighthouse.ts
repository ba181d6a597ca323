import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import lighthouse from 'lighthouse';
import * as chromeLauncher from 'chrome-launcher';
import { chromium } from 'playwright-core';
import { startServerProcess } from '../tests/support/serverProcess';
import { CHROMIUM } from '../tests/support/browser';
import { checkoutPages, chooseBranchScript, shopPages, storeScript } from './firstLoad';

/** Issue 12's budget for Lighthouse on a phone (its default mobile emulation and simulated slow 4G). */
export const LIGHTHOUSE_BUDGET = { performance: 95, accessibility: 100 } as const;

/**
 * Lighthouse (mobile form factor, performance and accessibility) on the shop's home, /products, a
 * product page and /check-out (a signed-in customer with one cart line, in English and in Arabic), served
 * by the production server. All but home open with the brand and branch chosen,
 * as a returning customer has them: Lighthouse's own storage reset is off so the stored choice stays,
 * and the HTTP cache is emptied before each page so every run is a first load.
 */
export async function benchLighthouse() {
  const server = await startServerProcess();
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: ['--headless=new', '--no-sandbox'] });
  try {
    const cdpBrowser = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`);
    // LIGHTHOUSE_PAGES=<regular expression> runs only the pages whose name matches; LIGHTHOUSE_RUNS=<n> runs
    // them n times in turn and ends with each page's median (the machine's load moves single figures).
    const only = new RegExp(process.env.LIGHTHOUSE_PAGES ?? '');
    const runs = Math.max(1, Number(process.env.LIGHTHOUSE_RUNS) || 1);
    const pages: { name: string; path: string; chosen: Parameters<typeof chooseBranchScript>[0] | null; stored?: Record<string, string> }[] =
      [...await shopPages(server), ...await checkoutPages(server)].filter((p) => only.test(p.name));
    console.log(`Lighthouse ${JSON.parse(readFileSync(path.resolve('node_modules/lighthouse/package.json'), 'utf8')).version}, mobile, ${CHROMIUM} — budgets: performance ≥ ${LIGHTHOUSE_BUDGET.performance}, accessibility ${LIGHTHOUSE_BUDGET.accessibility}`);
    const scores = new Map<string, { perf: number; load: string }[]>();
    for (let run = 1; run <= runs; run++) for (const page of pages) {
      if (runs > 1 && page === pages[0]) console.log(`run ${run} of ${runs}`);
      const context = cdpBrowser.contexts()[0];
      const prep = await context.newPage();
      await prep.goto(server.url + '/robots.txt').catch(() => {});
      await prep.evaluate(`localStorage.clear(); sessionStorage.clear(); ${page.chosen ? chooseBranchScript(page.chosen) : ''} ${page.stored ? storeScript(page.stored) : ''}`);
      const cdp = await context.newCDPSession(prep);
      await cdp.send('Network.clearBrowserCache');
      await prep.close();

      const result = await lighthouse(server.url + page.path, {
        port: chrome.port, output: 'json', logLevel: 'error', formFactor: 'mobile',
        onlyCategories: ['performance', 'accessibility'], disableStorageReset: true,
      });
      if (!result) { console.log(`  ${page.name}: no result`); continue; }
      const { lhr } = result;
      // LIGHTHOUSE_JSON=<dir> keeps each page's full report, for the audits behind a figure.
      if (process.env.LIGHTHOUSE_JSON) {
        mkdirSync(process.env.LIGHTHOUSE_JSON, { recursive: true });
        writeFileSync(path.join(process.env.LIGHTHOUSE_JSON, `${page.name.replace(/\W+/g, '_')}.json`), JSON.stringify(lhr));
      }
      const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
      const perf = score('performance');
      const a11y = score('accessibility');
      const metric = (id: string) => lhr.audits[id]?.displayValue ?? '?';
      const mark = (ok: boolean) => (ok ? 'ok' : 'BELOW');
      const load = loadavg().map((l) => l.toFixed(1)).join(' ');
      scores.set(page.name, [...scores.get(page.name) ?? [], { perf, load }]);
      console.log(`  ${page.name.padEnd(28)} performance ${String(perf).padStart(3)} (budget ≥ ${LIGHTHOUSE_BUDGET.performance}, ${mark(perf >= LIGHTHOUSE_BUDGET.performance)})  accessibility ${String(a11y).padStart(3)} (budget ${LIGHTHOUSE_BUDGET.accessibility}, ${mark(a11y >= LIGHTHOUSE_BUDGET.accessibility)})  load average ${load}`);
      console.log(`    FCP ${metric('first-contentful-paint')}  LCP ${metric('largest-contentful-paint')}  TBT ${metric('total-blocking-time')}  CLS ${metric('cumulative-layout-shift')}  SI ${metric('speed-index')}  final ${lhr.finalDisplayedUrl.replace(server.url, '')}`);
      if (lhr.runtimeError) console.log(`    runtime error: ${lhr.runtimeError.message}`);
      // Name what costs points so the figure can be acted on.
      for (const ref of lhr.categories.accessibility?.auditRefs ?? []) {
        const audit = lhr.audits[ref.id];
        if (ref.weight > 0 && audit.score !== null && audit.score < 1) {
          const items = ((audit.details as { items?: { node?: { snippet?: string } }[] } | undefined)?.items ?? []).slice(0, 3).map((i) => i.node?.snippet).filter(Boolean);
          console.log(`    accessibility: ${ref.id} — ${audit.title}${items.length ? `: ${items.join(' | ')}` : ''}`);
        }
      }
      const opportunities = Object.values(lhr.audits)
        .filter((a) => a.details?.type === 'opportunity' && a.score !== null && a.score < 0.9)
        .map((a) => `${a.id} ${a.displayValue ?? ''}`.trim());
      if (opportunities.length) console.log(`    performance opportunities: ${opportunities.join('; ')}`);
    }
    if (runs > 1) {
      console.log(`median of ${runs} runs (performance; the load average beside each run)`);
      for (const [name, all] of scores) {
        const sorted = all.map((r) => r.perf).sort((a, b) => a - b);
        console.log(`  ${name.padEnd(28)} ${sorted[Math.floor(sorted.length / 2)]}  (${all.map((r) => `${r.perf} @ ${r.load}`).join(', ')})`);
      }
    }
    await cdpBrowser.close();
  } finally {
    chrome.kill();
    await server.close();
  }
}
