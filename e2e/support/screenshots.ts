import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';

/** A phone's screen in portrait (an iPhone 12–15's CSS pixels): where a long Swedish line is most likely to break. */
export const PHONE = { width: 390, height: 844 } as const;

const nextFrame = (page: Page) => page.evaluate(() => new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r()))));

/**
 * With E2E_SCREENSHOTS=<folder>, what people read on this page, to look at: `<name>.png` at the page's own size and
 * `<name>-phone.png` with the viewport narrowed to a phone's, then put back, so the test goes on as it was. Without
 * the variable it does nothing: the tests' assertions, not pictures, are what holds the product.
 */
export async function screenshot(page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<void> {
  const dir = process.env.E2E_SCREENSHOTS;
  if (!dir) return;
  fs.mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: options.fullPage });
  const size = page.viewportSize();
  if (!size) return;
  await page.setViewportSize(PHONE);
  await nextFrame(page);
  await page.screenshot({ path: path.join(dir, `${name}-phone.png`), fullPage: options.fullPage });
  await page.setViewportSize(size);
  await nextFrame(page);
}
