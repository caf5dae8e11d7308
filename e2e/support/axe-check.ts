/**
 * axe-core (the accessibility engine) on a page of the app: the violations of impact serious or critical,
 * each written so it can be fixed from the failure message alone: the view, the rule, the element and
 * axe's own summary of what is wrong.
 */
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';

/** The impacts that fail the check; minor and moderate ones are advice. */
const FAILING_IMPACTS: ReadonlySet<string> = new Set(['serious', 'critical']);

/**
 * Parts of Monaco's DOM that are Monaco's own, out of the app's reach, and not what a person reads:
 * - `.monaco-editor textarea.inputarea`: the hidden textarea Monaco types into (1 px, transparent); a
 *   read-only diff never takes text from it, and its label is Monaco's ("Editor content").
 * - `.monaco-editor .monaco-scrollable-element > .scrollbar`: the scrollbar shadows Monaco draws.
 */
export const MONACO_INTERNALS: readonly string[] = [];

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
  let builder = new AxeBuilder({ page });
  if (options.include) builder = builder.include(options.include);
  for (const selector of MONACO_INTERNALS) builder = builder.exclude(selector);
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
