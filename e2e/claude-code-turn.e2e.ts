/**
 * The turn review with the real Claude Code (`claude -p --permission-mode acceptEdits`, each pinned
 * version), decided in Chromium (issue 26): the model writes a two-hunk edit and a new file unasked, the
 * turn ends, and only then does one review show both files. The person reverts hunk 2, comments on a line
 * and writes a note: the file on disk loses hunk 2, the new file stays, and a further request tells the
 * model what was reverted, the comment and the note — it goes on, and its next edit lands. Keeping
 * everything without a word ends the turn silently.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { docsScreenshot } from '../test/support/chromium';
import { CLAUDE_CODE_VERSIONS, findClaudeBinary } from '../test/support/claude-code';
import { claudeHooksSession } from './support/claude-hooks-session';
import { resizeAndSettle } from './support/viewport';

const binaries = CLAUDE_CODE_VERSIONS.map((version) => findClaudeBinary(version));
for (const { version, skipReason } of binaries) {
  if (skipReason) console.warn(`Skipping the real Claude Code ${version} turn review e2e: ${skipReason}`);
}

const BASE = 'alpha\nbeta\ngamma\ndelta\nepsilon\nzeta\neta\ntheta\n';
const EDITED = 'ALPHA\nbeta\ngamma\ndelta\nepsilon\nzeta\neta\nTHETA\n';
const HUNK_1_ONLY = 'ALPHA\nbeta\ngamma\ndelta\nepsilon\nzeta\neta\ntheta\n';
const NEW_FILE = 'export const LETTERS = 24;\n';
const PROMPT = 'Capitalise the Greek letters in greek.txt\nand count them';
const UNASKED = { args: ['--permission-mode', 'acceptEdits'], prompt: PROMPT };

describe.each(binaries)('Claude Code $version', (claude) => {
  describe.skipIf(claude.skipReason !== undefined)('a whole turn, reviewed when it ends', () => {
    const session = claudeHooksSession(claude);
    const { shown, button, noteBox } = session;
    const title = () => `Claude Code · ${path.basename(session.app.workspace)}: ${PROMPT.split('\n')[0]}`;

    function unaskedTurn(greek: string, count: string) {
      return [
        { tool: 'Read', input: { file_path: greek } },
        { tool: 'Edit', input: { file_path: greek, old_string: BASE, new_string: EDITED } },
        { tool: 'Write', input: { file_path: count, content: NEW_FILE } },
        { text: 'Done.' },
      ];
    }

    it('hunk 2 reverted, a comment and a note: the disk loses hunk 2 only, and the model goes on with them', async () => {
      const greek = path.join(session.app.workspace, 'greek.txt');
      const count = path.join(session.app.workspace, 'count.ts');
      writeFileSync(greek, BASE);
      const run = session.runClaude(
        [
          ...unaskedTurn(greek, count),
          // The model's answer to the reviewer: it reads the file again, edits, and ends its turn again.
          { tool: 'Read', input: { file_path: greek } },
          { tool: 'Edit', input: { file_path: greek, old_string: 'gamma', new_string: 'GAMMA' } },
          { text: 'Done again.' },
        ],
        UNASKED,
      );

      const review = session.page.locator('#dt-review-title', { hasText: title() });
      await shown(review, run, 'the turn review');
      // Nothing was asked before the turn ended: both writes are on disk already.
      expect(readFileSync(greek, 'utf8')).toBe(EDITED);
      expect(readFileSync(count, 'utf8')).toBe(NEW_FILE);
      expect(session.standIn.turnsServed()).toBe(4);
      const tab = (name: string) => session.page.locator('.dt-file-tab', { hasText: name });
      await expect.poll(() => tab('greek.txt').count()).toBe(1);
      await expect.poll(() => tab('count.ts').count()).toBe(1);

      await session.page.getByRole('button', { name: 'Reject hunk 2', exact: true }).click();
      // A comment on line 1 of what the model wrote.
      await session.page
        .getByTestId('diff-editor')
        .locator('.editor.modified .line-numbers')
        .filter({ hasText: /^1$/ })
        .click();
      const comment = session.page.getByRole('group', { name: 'Comment on line 1' });
      await comment.getByRole('textbox').fill('Spell it Alpha: only the first letter is capital.');
      await comment.getByRole('button', { name: 'Save' }).click();
      await noteBox().fill('Keep theta lowercase: it is a variable name.');
      // The README's picture, at the size of its others (readme-screenshots.e2e.ts); then back.
      const size = session.page.viewportSize();
      await resizeAndSettle(session.page, { width: 1024, height: 700 });
      await docsScreenshot(session.page, 'turn-review');
      if (size) await resizeAndSettle(session.page, size);
      await button('Submit').click();

      // The model went on: its next edit came, unasked again, and the next turn review shows only it.
      await expect.poll(() => session.standIn.turnsServed(), { timeout: 30_000 }).toBe(7);
      await shown(review, run, 'the second turn review');
      // Only what changed since the person's review: the one new hunk.
      await expect.poll(() => tab('count.ts').count()).toBe(0);
      await expect.poll(() => session.page.locator('[data-hunk]').count()).toBe(1);
      const told = session.standIn.userMessageTexts().find((text) => text.includes('DiffTray')) ?? '';
      expect(told).toContain('Keep theta lowercase: it is a variable name.');
      expect(told).toMatch(/greek\.txt: line 8/);
      expect(told).toContain('greek.txt:1 ("ALPHA"): Spell it Alpha: only the first letter is capital.');
      expect(told).not.toContain('count.ts');
      expect(readFileSync(greek, 'utf8')).toBe(HUNK_1_ONLY.replace('gamma', 'GAMMA'));
      expect(readFileSync(count, 'utf8')).toBe(NEW_FILE);
      await button('Submit').click();

      const result = await run;
      expect(result.exitCode, result.stderr).toBe(0);
      // Kept without a word: the turn ended there.
      expect(session.standIn.turnsServed()).toBe(7);
    });

    it('keeping everything without a word ends the turn: no further request', async () => {
      const greek = path.join(session.app.workspace, 'greek.txt');
      const count = path.join(session.app.workspace, 'count.ts');
      writeFileSync(greek, BASE);
      const run = session.runClaude(unaskedTurn(greek, count), UNASKED);
      await shown(session.page.locator('#dt-review-title', { hasText: title() }), run, 'the turn review');
      await button('Submit').click();
      const result = await run;
      expect(result.exitCode, result.stderr).toBe(0);
      expect(session.standIn.turnsServed()).toBe(4);
      expect(readFileSync(greek, 'utf8')).toBe(EDITED);
      expect(readFileSync(count, 'utf8')).toBe(NEW_FILE);
    });
    it('a file written by a shell command (watch mode on) is in the turn review, and reverted there', async () => {
      const notes = path.join(session.app.workspace, 'notes.txt');
      writeFileSync(notes, 'one\n');
      await session.app.runtime.watch.setWatched(session.app.workspace, true);
      const run = session.runClaude(
        [
          { tool: 'Bash', input: { command: `printf 'two\\n' >> ${notes}`, description: 'Add a line' } },
          { text: 'Done.' },
        ],
        UNASKED,
      );
      // Claude Code asks before a shell command even in accept-edits mode: DiffTray's approval card.
      const card = session.page.getByTestId('approval-card');
      await shown(card.getByText('Add a line'), run, 'the approval card');
      await button('Allow').click();

      await shown(session.page.locator('#dt-review-title', { hasText: title() }), run, 'the turn review');
      expect(readFileSync(notes, 'utf8')).toBe('one\ntwo\n');
      await session.page.getByRole('button', { name: 'Reject hunk 1', exact: true }).click();
      await button('Submit').click();
      await expect.poll(() => session.standIn.turnsServed(), { timeout: 30_000 }).toBe(3);
      expect(readFileSync(notes, 'utf8')).toBe('one\n');
      const told = session.standIn.userMessageTexts().find((text) => text.includes('DiffTray')) ?? '';
      expect(told).toContain('- notes.txt: all of your changes to it');
      const result = await run;
      expect(result.exitCode, result.stderr).toBe(0);
    });
  });
});
