import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

/** axe-core, injected into the page with playwright-core. */
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface Violation { id: string; impact: string; help: string; nodes: { target: string[]; failureSummary: string }[] }

/** The page's serious and critical violations of the WCAG 2.0/2.1 A and AA rules. */
export async function seriousViolations(page: Page): Promise<Violation[]> {
  await page.evaluate(AXE);
  const result = await page.evaluate(() => (window as any).axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] }, resultTypes: ['violations'] }));
  return (result.violations as Violation[]).filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** One line per violation, for a test's failure message. */
export const describeViolations = (where: string, found: Violation[]) =>
  found.map((v) => `${where}: ${v.id} (${v.impact}) ${v.help} at ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`);
