/** What the bench reads off a page, the same way for DiffTray's page and for a floor's. */
import type { BrowserContext, Page } from 'playwright-core';

interface ProbeWindow {
  benchLongTasks: number[];
  benchArrival?: Promise<void>;
}

/** From the start of every page of `context`, long main-thread tasks (over 50 ms) are recorded. */
export async function recordLongTasks(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const w = window as unknown as ProbeWindow;
    w.benchLongTasks = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) w.benchLongTasks.push(entry.duration);
    }).observe({ type: 'longtask', buffered: true });
  });
}

/** The longest task recorded since the last call (0 when none took over 50 ms). */
export function longestTask(page: Page): Promise<number> {
  return page.evaluate(() => {
    const w = window as unknown as ProbeWindow;
    const longest = Math.max(0, ...w.benchLongTasks);
    w.benchLongTasks = [];
    return longest;
  });
}

/**
 * Starts watching for an element matching `selector` whose text contains `text`; `arrival` then
 * resolves once it is in the DOM or an attribute change makes it match (a MutationObserver, so the
 * moment it happens, not a poll: Playwright's waitFor checks only every 500 ms after the first few).
 */
export async function armArrival(page: Page, selector: string, text = ''): Promise<void> {
  await page.evaluate(
    ([selector, text]) => {
      const w = window as unknown as ProbeWindow;
      const present = () =>
        [...document.querySelectorAll(selector)].some((element) => element.textContent?.includes(text));
      w.benchArrival = new Promise<void>((resolve) => {
        if (present()) return resolve();
        const observer = new MutationObserver(() => {
          if (!present()) return;
          observer.disconnect();
          resolve();
        });
        observer.observe(document.body, {
          childList: true,
          subtree: true,
          characterData: true,
          attributes: true,
        });
      });
    },
    [selector, text] as const,
  );
}

export function arrival(page: Page): Promise<void> {
  return page.evaluate(() => (window as unknown as ProbeWindow).benchArrival);
}

/**
 * The page's JS heap in MB (main thread; workers not counted): as it is, garbage included, and what
 * is left after a full garbage collection.
 */
export async function jsHeapMb(page: Page): Promise<{ asIs: number; retained: number }> {
  const cdp = await page.context().newCDPSession(page);
  const used = async () => (await cdp.send('Runtime.getHeapUsage')).usedSize / (1024 * 1024);
  try {
    const asIs = await used();
    await cdp.send('HeapProfiler.collectGarbage');
    return { asIs, retained: await used() };
  } finally {
    await cdp.detach();
  }
}
