/**
 * axe-core (the accessibility engine) on a page of the app: the violations of impact serious or critical,
 * each written so it can be fixed from the failure message alone: the view, the rule, the element and
 * axe's own summary of what is wrong. Nothing is excluded, Monaco's DOM included: what axe found there
 * (an editor without a name, faint line numbers, text on tints) was in the app's reach (its options and
 * theme colours), so it was fixed rather than skipped.
 */
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';

/** The impacts that fail the check; minor and moderate ones are advice. */
const FAILING_IMPACTS: ReadonlySet<string> = new Set(['serious', 'critical']);

export interface AxeCheckOptions {
  /** Only this part of the page (a CSS selector); the whole page by default. */
  include?: string;
}

/** Runs axe on `page` and answers one line per failing violation and element, for view `view`. */
export async function seriousViolations(
  page: Page,
  view: string,
  options: AxeCheckOptions = {},
): Promise<string[]> {
  // Only violations are read: axe skips the details of what passed, which on Monaco's DOM is most of its time.
  // Legacy mode runs axe in the page itself. The default mode exists for cross-origin frames, which the app
  // has none of (a frame left untested would show as axe's frame-tested rule); for each run it opens a blank
  // page, loads axe (650 kB) into it and merges the results there, which made a run take about 1.8× as long.
  let builder = new AxeBuilder({ page }).options({ resultTypes: ['violations'] }).setLegacyMode();
  if (options.include) builder = builder.include(options.include);
  const results = await builder.analyze();
  const lines: string[] = [];
  for (const violation of results.violations) {
    if (!violation.impact || !FAILING_IMPACTS.has(violation.impact)) continue;
    for (const node of violation.nodes) {
      const summary = (node.failureSummary ?? violation.help).replace(/\s+/g, ' ').trim();
      lines.push(
        `[${view}] ${violation.id} (${violation.impact}) at ${JSON.stringify(node.target)}: ${summary}`,
      );
    }
  }
  return lines;
}
