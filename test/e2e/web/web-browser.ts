/**
 * The web app's browser checks: a screenshot of a page at desktop and phone widths kept under the
 * build's test output (`dist/test-output/web-pages/`) for review, and an accessibility check with
 * axe-core that fails on any serious or critical violation.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';

export const WEB_SCREENSHOT_DIR = fileURLToPath(new URL('../../../test-output/web-pages/', import.meta.url));

const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };

/** Saves `<name>-desktop.png` and `<name>-phone.png`, then puts the page back at desktop width. */
export async function screenshotBothWidths(page: Page, name: string): Promise<void> {
  mkdirSync(WEB_SCREENSHOT_DIR, { recursive: true });
  for (const [width, size] of [['phone', PHONE], ['desktop', DESKTOP]] as const) {
    await page.setViewportSize(size);
    await page.screenshot({ path: join(WEB_SCREENSHOT_DIR, `${name}-${width}.png`), fullPage: true });
  }
}

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  readonly id: string;
  readonly impact: string | null;
  readonly help: string;
  readonly nodes: readonly { readonly target: readonly string[] }[];
}

/** Runs axe-core in the page (no network) and fails on serious or critical violations. */
export async function assertAccessible(page: Page, what: string): Promise<void> {
  // Evaluated through the DevTools protocol: the page's content security policy rightly refuses an injected script tag.
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(): Promise<{ violations: AxeViolation[] }> } }).axe;
    return (await axe.run()).violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target })) }));
  });
  const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  assert.deepEqual(serious.map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`), [], `accessibility of ${what}`);
}
