/**
 * The real Claude Code CLI (`claude -p`, each pinned version) reviewed through DiffTray's hook, decided in Chromium:
 * the hook is installed with `difftray setup claude-code` in a temp CLAUDE_CONFIG_DIR, the model is the
 * project's loopback stand-in (a Read, then an Edit or a Bash call), and the person accepts, rejects and
 * writes a note in the real UI. Checked: the bytes Claude Code wrote, and what the model received next.
 * Skipped, saying why, where the CLI's native binary is missing.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ScriptedTurn } from '../test/support/anthropic-stand-in';
import { screenshot } from '../test/support/chromium';
import { CLAUDE_CODE_VERSIONS, HOOK_CONTEXT_PLACEMENT, findClaudeBinary } from '../test/support/claude-code';
import { claudeHooksSession } from './support/claude-hooks-session';

const binaries = CLAUDE_CODE_VERSIONS.map((version) => findClaudeBinary(version));
for (const { version, skipReason } of binaries) {
  if (skipReason) console.warn(`Skipping the real Claude Code ${version} hooks e2e: ${skipReason}`);
}

/** Eight lines; the Edit changes the first and the last: two hunks. */
const BASE = 'alpha\nbeta\ngamma\ndelta\nepsilon\nzeta\neta\ntheta\n';
const EDITED = 'ALPHA\nbeta\ngamma\ndelta\nepsilon\nzeta\neta\nTHETA\n';
const HUNK_1_ONLY = 'ALPHA\nbeta\ngamma\ndelta\nepsilon\nzeta\neta\ntheta\n';
/** The same with a byte-order mark and no final newline, as Claude Code's model sees it: without the mark. */
const BOM = '\uFEFF';
const UNTERMINATED = (text: string) => text.slice(0, -1);

describe.each(binaries)('Claude Code $version', (claude) => {
  describe.skipIf(claude.skipReason !== undefined)('through its hooks, decided in DiffTray', () => {
    const session = claudeHooksSession(claude);
    const { shown, button, noteBox } = session;
    const runClaude = (script: ScriptedTurn[]) => session.runClaude(script);

    function editScript(file: string, base = BASE, edited = EDITED): ScriptedTurn[] {
      return [
        { tool: 'Read', input: { file_path: file } },
        {
          tool: 'Edit',
          input: { file_path: file, old_string: base, new_string: edited, replace_all: false },
        },
        { text: 'Done.' },
      ];
    }

    it('accept hunk 1, reject hunk 2, a note: Claude Code writes exactly hunk 1 and the model reads the note', async () => {
      const file = path.join(session.app.workspace, 'greek.txt');
      writeFileSync(file, BASE);
      const run = runClaude(editScript(file));

      await shown(session.page.locator('#dt-review-title', { hasText: 'Edit greek.txt' }), run, 'the review');
      await session.page.getByRole('button', { name: 'Accept hunk 1', exact: true }).click();
      await session.page.getByRole('button', { name: 'Reject hunk 2', exact: true }).click();
      await noteBox().fill('Keep theta lowercase: it is a variable name.');
      await screenshot(session.page, 'claude-hooks-partial');
      await button('Submit').click();

      const result = await run;
      expect(result.exitCode, result.stderr).toBe(0);
      expect(readFileSync(file, 'utf8')).toBe(HUNK_1_ONLY);
      const edit = session.standIn.toolResultOfTurn(1);
      expect(edit?.isError).toBe(false);
      expect(session.standIn.lastMessageText()).toContain('Keep theta lowercase: it is a variable name.');
      expect(session.standIn.lastMessageText()).toMatch(/line 8/);
      // 2.1.197 puts the hook's context beside the tool result; 2.1.332 sends it as a system message.
      expect(session.standIn.contextAfterTurn(1)).toEqual([
        {
          placement: HOOK_CONTEXT_PLACEMENT[claude.version],
          text: expect.stringMatching(/line 8[^]*Keep theta lowercase: it is a variable name\./),
        },
      ]);
    });

    it('a file with a byte-order mark and no final newline: hunk 1 accepted, hunk 2 rejected, written byte for byte', async () => {
      const file = path.join(session.app.workspace, 'greek.txt');
      writeFileSync(file, BOM + UNTERMINATED(BASE));
      const run = runClaude(editScript(file, UNTERMINATED(BASE), UNTERMINATED(EDITED)));

      await shown(session.page.locator('#dt-review-title', { hasText: 'Edit greek.txt' }), run, 'the review');
      await session.page.getByRole('button', { name: 'Accept hunk 1', exact: true }).click();
      await session.page.getByRole('button', { name: 'Reject hunk 2', exact: true }).click();
      await button('Submit').click();

      const result = await run;
      expect(result.exitCode, result.stderr).toBe(0);
      expect(session.standIn.toolResultOfTurn(1)?.isError, session.standIn.toolResultOfTurn(1)?.text).toBe(
        false,
      );
      expect(readFileSync(file, 'utf8')).toBe(BOM + UNTERMINATED(HUNK_1_ONLY));
    });

    it('a Write over a file with a byte-order mark: the mark stays, hunk 1 accepted, hunk 2 rejected', async () => {
      const file = path.join(session.app.workspace, 'greek.txt');
      writeFileSync(file, BOM + BASE);
      // The model writes the whole text without the mark (2.1.332 never shows it the mark).
      const run = runClaude([
        { tool: 'Read', input: { file_path: file } },
        { tool: 'Write', input: { file_path: file, content: EDITED } },
        { text: 'Done.' },
      ]);

      await shown(
        session.page.locator('#dt-review-title', { hasText: 'Write greek.txt' }),
        run,
        'the review',
      );
      await expect.poll(() => session.page.locator('[data-hunk]').count()).toBe(2);
      await session.page.getByRole('button', { name: 'Accept hunk 1', exact: true }).click();
      await session.page.getByRole('button', { name: 'Reject hunk 2', exact: true }).click();
      await button('Submit').click();

      const result = await run;
      expect(result.exitCode, result.stderr).toBe(0);
      expect(session.standIn.toolResultOfTurn(1)?.isError, session.standIn.toolResultOfTurn(1)?.text).toBe(
        false,
      );
      expect(readFileSync(file, 'utf8')).toBe(BOM + HUNK_1_ONLY);
    });

    it('a trailing-space line that Claude Code’s own cleanup would strip stays as the reviewer kept it', async () => {
      // Claude Code strips trailing spaces from the model's new_string (not in .md files) before the hook
      // sees it, so the proposal changes line 4 as well: three hunks. The reviewer keeps line 4 as it was.
      const spaced = BASE.replace('delta', 'delta   ');
      const file = path.join(session.app.workspace, 'greek.txt');
      writeFileSync(file, spaced);
      const run = runClaude(editScript(file, spaced, EDITED.replace('delta', 'delta   ')));

      await shown(session.page.locator('#dt-review-title', { hasText: 'Edit greek.txt' }), run, 'the review');
      await session.page.getByRole('button', { name: 'Reject hunk 2', exact: true }).click();
      await expect.poll(() => session.page.locator('[data-hunk]').count()).toBe(3);
      await button('Submit').click();

      const result = await run;
      expect(result.exitCode, result.stderr).toBe(0);
      expect(readFileSync(file, 'utf8')).toBe(EDITED.replace('delta', 'delta   '));
    });

    it('reject with a note: the file is untouched and the model gets the note as the tool error', async () => {
      const file = path.join(session.app.workspace, 'greek.txt');
      writeFileSync(file, BASE);
      const run = runClaude(editScript(file));

      await shown(session.page.locator('#dt-review-title', { hasText: 'Edit greek.txt' }), run, 'the review');
      await noteBox().fill('Wrong file: the letters live in constants.ts.');
      await button('Reject…').click();
      await session.page
        .getByRole('dialog', { name: 'Reject review' })
        .getByRole('button', { name: 'Reject review' })
        .click();

      const result = await run;
      expect(result.exitCode, result.stderr).toBe(0);
      expect(readFileSync(file, 'utf8')).toBe(BASE);
      const edit = session.standIn.toolResultOfTurn(1);
      expect(edit).toMatchObject({ isError: true });
      expect(edit!.text).toContain('Wrong file: the letters live in constants.ts.');
    });

    it('a Bash command denied with a note never runs, and the model reads why', async () => {
      const marker = path.join(session.app.workspace, 'ran.txt');
      const run = runClaude([
        { tool: 'Bash', input: { command: `touch ${marker}`, description: 'Mark the run' } },
        { text: 'Done.' },
      ]);

      const card = session.page.getByTestId('approval-card');
      await shown(card.getByText(`touch ${marker}`), run, 'the approval card');
      await card.getByText('Mark the run').waitFor();
      await noteBox().fill('No side effects in this task.');
      await button('Deny').click();

      const result = await run;
      expect(result.exitCode, result.stderr).toBe(0);
      expect(existsSync(marker)).toBe(false);
      const bash = session.standIn.toolResultOfTurn(0);
      expect(bash).toMatchObject({ isError: true });
      expect(bash!.text).toContain('No side effects in this task.');
    });
  });
});
