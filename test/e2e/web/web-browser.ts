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

/** The little of the DOM the checks below read in the page (this build's types have no DOM library). */
interface DomRect { readonly left: number; readonly right: number; readonly top: number; readonly bottom: number; readonly width: number; readonly height: number }
interface DomElement {
  readonly tagName: string;
  readonly id: string;
  readonly textContent: string | null;
  readonly name?: string;
  getBoundingClientRect(): DomRect;
  closest(selector: string): DomElement | null;
  contains(other: DomElement): boolean;
}
interface DomStyle { readonly visibility: string; readonly outlineStyle: string; readonly outlineWidth: string; readonly boxShadow: string }
interface DomWindow {
  readonly document: {
    readonly documentElement: { readonly clientWidth: number; readonly scrollWidth: number };
    readonly activeElement: DomElement | null;
    readonly body: { focus(): void };
    querySelectorAll(selector: string): Iterable<DomElement>;
  };
  getComputedStyle(element: DomElement): DomStyle;
}

/** The page's console errors and uncaught exceptions from now on (a CSP refusal is one, a missing favicon another), but the status line of a page that answers an error on purpose (404, 401). */
export function watchConsole(page: Page): () => string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const text = message.text();
    const url = message.location().url;
    if (/^Failed to load resource: the server responded with a status of \d+/.test(text) && url === page.url()) return;
    errors.push(url ? `${text} (${url})` : text);
  });
  page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`));
  return () => [...errors];
}

/**
 * The page's layout at desktop and phone widths: nothing scrolls sideways, and every visible
 * control (link, button, field) lies inside the viewport's width and overlaps no other one.
 */
export async function assertLayout(page: Page, what: string): Promise<void> {
  for (const [width, size] of [['phone', PHONE], ['desktop', DESKTOP]] as const) {
    await page.setViewportSize(size);
    const problems = await page.evaluate(() => {
      const win = globalThis as unknown as DomWindow;
      const doc = win.document;
      const out: string[] = [];
      const viewport = doc.documentElement.clientWidth;
      if (doc.documentElement.scrollWidth > viewport + 1) out.push(`the page is ${doc.documentElement.scrollWidth}px wide in a ${viewport}px viewport`);
      const name = (el: DomElement): string => `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''} "${(el.textContent ?? '').trim().slice(0, 30) || el.name || ''}"`;
      const controls = [...doc.querySelectorAll('a[href], button, input:not([type=hidden]), select, textarea, summary')]
        .map((el) => ({ el, box: el.getBoundingClientRect() }))
        .filter(({ el, box }) => box.width > 0 && box.height > 0 && win.getComputedStyle(el).visibility !== 'hidden' && !el.closest('.sr-only'));
      for (const { el, box } of controls) {
        // Inside a box that scrolls sideways on purpose (code), a control may lie past the edge.
        if ((box.left < -1 || box.right > viewport + 1) && !el.closest('pre, .code, table.code')) out.push(`${name(el)} lies outside the viewport (${Math.round(box.left)}–${Math.round(box.right)})`);
      }
      for (let i = 0; i < controls.length; i++) {
        for (let j = i + 1; j < controls.length; j++) {
          const a = controls[i]!;
          const b = controls[j]!;
          if (a.el.contains(b.el) || b.el.contains(a.el)) continue;
          const w = Math.min(a.box.right, b.box.right) - Math.max(a.box.left, b.box.left);
          const h = Math.min(a.box.bottom, b.box.bottom) - Math.max(a.box.top, b.box.top);
          if (w > 1 && h > 1) out.push(`${name(a.el)} overlaps ${name(b.el)}`);
        }
      }
      return out;
    });
    assert.deepEqual(problems, [], `layout of ${what} at ${width} width`);
  }
}

export interface TabStop {
  /** The focused element: tag, id, and its text or name. */
  readonly element: string;
  /** Whether a focus indicator shows (an outline or a box shadow). */
  readonly indicated: boolean;
}

/** Presses Tab `count` times from where the focus is, recording each element it reaches. */
export async function tabStops(page: Page, count: number): Promise<TabStop[]> {
  const stops: TabStop[] = [];
  for (let i = 0; i < count; i++) {
    await page.keyboard.press('Tab');
    stops.push(await focused(page));
  }
  return stops;
}

export function focused(page: Page): Promise<TabStop> {
  return page.evaluate(() => {
    const win = globalThis as unknown as DomWindow;
    const el = win.document.activeElement;
    if (el === null) return { element: 'none', indicated: false };
    const style = win.getComputedStyle(el);
    const text = (el.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40) || el.name || '';
    return {
      element: `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''} ${text}`.trim(),
      indicated: (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0) || style.boxShadow !== 'none',
    };
  });
}
