/** Resizing a page's viewport in the middle of a test, and waiting until the app has laid itself out again. */
import type { Page } from 'playwright-core';

export interface ViewportSize {
  width: number;
  height: number;
}

/**
 * Gives `page` the viewport `size` and resolves once the app has drawn at it: two animation frames, so
 * ResizeObserver callbacks (Monaco's layout, the review header's measure) and the frame they schedule
 * have run before anything reads the page.
 */
export async function resizeAndSettle(page: Page, size: ViewportSize): Promise<void> {
  const now = page.viewportSize();
  if (now?.width === size.width && now.height === size.height) return;
  await page.setViewportSize(size);
  await page.evaluate(
    () => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))),
  );
}
