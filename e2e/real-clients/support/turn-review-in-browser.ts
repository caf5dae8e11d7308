/**
 * The turn review as every real-client test drives it (issue 26): DiffTray's settings that make an agent's
 * edits wait for the turn review, and what a person does in the window once it is up — reject hunk 2,
 * comment on a line of what the agent wrote, type a note, Submit.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import type { HookAgentName } from '../../../shared/hooks/hook-tables';
import type { TurnReviewSettings } from '../../../shared/turn-settings';

/**
 * For the app's `beforeStart`: `~/.difftray/settings.json` saying `agent`'s edits are let through and
 * reviewed with the turn (`{"turnReview":{"<agent>":{"edits":"turn"}}}`).
 */
export function editsWithTheTurn(agent: HookAgentName): (home: string) => void {
  return (home) => {
    const turnReview: TurnReviewSettings = { [agent]: { edits: 'turn' } };
    const folder = path.join(home, '.difftray');
    mkdirSync(folder, { recursive: true });
    writeFileSync(path.join(folder, 'settings.json'), JSON.stringify({ turnReview }));
  };
}

/** The review's file tab named `name`. */
export const fileTab = (page: Page, name: string) => page.locator('.dt-file-tab', { hasText: name });

export interface TurnReviewWords {
  /** 1-based, in the file as the agent left it (the modified side). */
  line: number;
  comment: string;
  note: string;
}

/**
 * In the open turn review: rejects hunk 2, comments on `line` (by clicking its number on the modified
 * side), types the note, submits.
 */
export async function rejectHunk2WithWords(page: Page, words: TurnReviewWords): Promise<void> {
  await page.getByRole('button', { name: 'Reject hunk 2', exact: true }).click();
  await page
    .getByTestId('diff-editor')
    .locator('.editor.modified .line-numbers')
    .filter({ hasText: new RegExp(`^${words.line}$`) })
    .click();
  const comment = page.getByRole('group', { name: `Comment on line ${words.line}` });
  await comment.getByRole('textbox').fill(words.comment);
  await comment.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('textbox', { name: 'Note to the agent' }).fill(words.note);
  await page.getByRole('button', { name: 'Submit', exact: true }).click();
}

/**
 * Waits for `locator` in the page, failing at once with the CLI's transcript if the CLI exits first:
 * `exited` settles with that transcript when it does.
 */
export async function shownBeforeExit(
  locator: Locator,
  exited: Promise<string>,
  what: string,
  timeoutMs = 60_000,
): Promise<void> {
  const failed = exited.then((transcript) => {
    throw new Error(`The CLI exited before ${what} appeared in DiffTray's window:\n${transcript}`);
  });
  await Promise.race([locator.waitFor({ timeout: timeoutMs }), failed]);
}
