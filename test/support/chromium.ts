/** Debian's Chromium under Playwright, with the flags this sandboxed, offline machine needs. */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
export const SCREENSHOT_DIR = path.resolve('e2e/screenshots');

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
    ],
  });
}

/** A page that records console errors and CSP violations, so tests can assert there were none. */
export async function openPage(
  browser: Browser,
  url: string,
  options: { colorScheme?: 'light' | 'dark' } = {},
): Promise<{ page: Page; errors: string[] }> {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 800 },
    colorScheme: options.colorScheme ?? 'light',
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(url);
  return { page, errors };
}

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const file = path.join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path: file });
  return file;
}

/**
 * A screenshot the README shows (docs/<name>.png): written there only when UPDATE_DOCS_SCREENSHOTS=1, so
 * a test run leaves the committed pictures alone; otherwise beside the other screenshots.
 */
export async function docsScreenshot(page: Page, name: string): Promise<string> {
  if (process.env.UPDATE_DOCS_SCREENSHOTS !== '1') return screenshot(page, name);
  const file = path.resolve('docs', `${name}.png`);
  await page.screenshot({ path: file });
  return file;
}
