import { createRequire } from 'node:module';
import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

const require = createRequire(import.meta.url);
/** axe-core's source, injected into the page under test (Chromium through Playwright, Firefox through puppeteer). */
export const axeSource = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; html: string }[];
}

/** Runs in the page once axe-core is there: the WCAG 2.1 A/AA rules. */
export const runAxeInPage = async (): Promise<AxeViolation[]> => {
  const axe = (window as unknown as { axe: { run(ctx: unknown, opts: unknown): Promise<{ violations: AxeViolation[] }> } }).axe;
  const result = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
  return result.violations;
};

/** The serious and critical violations (the gate the issues set), shortened for a failure message. */
export function seriousOnly(violations: AxeViolation[]): AxeViolation[] {
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target, html: n.html.slice(0, 200) })) }));
}

/** WCAG 2.1 A/AA rules; returns the serious and critical violations. */
export async function seriousAxeViolations(page: Page): Promise<AxeViolation[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: axeSource });
  return seriousOnly(await page.evaluate(runAxeInPage));
}

/** Fails the test with the violations when axe-core finds a serious or critical one. */
export async function expectAxeClean(page: Page, where: string): Promise<void> {
  const violations = await seriousAxeViolations(page);
  expect(violations, `${where}: ${JSON.stringify(violations, null, 1)}`).toEqual([]);
}
