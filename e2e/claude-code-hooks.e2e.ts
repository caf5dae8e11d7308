/**
 * The real Claude Code CLI (`claude -p`, each pinned version) reviewed through DiffTray's hook, decided in Chromium:
 * the hook is installed with `difftray setup claude-code` in a temp CLAUDE_CONFIG_DIR, the model is the
 * project's loopback stand-in (a Read, then an Edit or a Bash call), and the person accepts, rejects and
 * writes a note in the real UI. Checked: the bytes Claude Code wrote, and what the model received next.
 * Skipped, saying why, where the CLI's native binary is missing.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  startAnthropicStandIn,
  type AnthropicStandIn,
  type ScriptedTurn,
} from '../test/support/anthropic-stand-in';
import { launchChromium, openPage, screenshot } from '../test/support/chromium';
import {
  CLAUDE_CODE_VERSIONS,
  HOOK_CONTEXT_PLACEMENT,
  findClaudeBinary,
  runClaudePrint,
  writeClaudeState,
  type ClaudePrintResult,
} from '../test/support/claude-code';
import { startHeadlessApp, type HeadlessApp } from '../test/support/headless-app';

const binaries = CLAUDE_CODE_VERSIONS.map((version) => findClaudeBinary(version));
for (const { version, skipReason } of binaries) {
  if (skipReason) console.warn(`Skipping the real Claude Code ${version} hooks e2e: ${skipReason}`);
}

const BIN = path.resolve('bin', 'difftray.cjs');

/** Eight lines; the Edit changes the first and the last: two hunks. */
const BASE = 'alpha\nbeta\ngamma\ndelta\nepsilon\nzeta\neta\ntheta\n';
const EDITED = 'ALPHA\nbeta\ngamma\ndelta\nepsilon\nzeta\neta\nTHETA\n';
const HUNK_1_ONLY = 'ALPHA\nbeta\ngamma\ndelta\nepsilon\nzeta\neta\ntheta\n';
/** The same with a byte-order mark and no final newline, as Claude Code's model sees it: without the mark. */
const BOM = '\uFEFF';
const UNTERMINATED = (text: string) => text.slice(0, -1);

describe.each(binaries)('Claude Code $version', (claude) => {
  describe.skipIf(claude.skipReason !== undefined)('through its hooks, decided in DiffTray', () => {
    let browser: Browser;
    let app: HeadlessApp;
    let page: Page;
    let errors: string[];
    let standIn: AnthropicStandIn | undefined;
    let configDir: string;

    beforeAll(async () => {
      browser = await launchChromium();
    });
    afterAll(async () => {
      await browser?.close();
    });

    beforeEach(async () => {
      app = await startHeadlessApp();
      // DiffTray's own Claude lock folder (<home>/.claude/ide), so `claude --ide` finds it too.
      configDir = path.join(app.home, '.claude');
      mkdirSync(configDir, { recursive: true });
      writeClaudeState(configDir, app.workspace);
      // Installed the way a person does it.
      const setup = spawnSync(process.execPath, [BIN, 'setup', 'claude-code'], {
        env: { ...process.env, CLAUDE_CONFIG_DIR: configDir },
        encoding: 'utf8',
      });
      expect(setup.status, setup.stderr).toBe(0);
      ({ page, errors } = await openPage(browser, app.url));
    });

    afterEach(async () => {
      await standIn?.close();
      standIn = undefined;
      await page?.context().close();
      await app?.close();
      expect(errors).toEqual([]);
    });

    /** Runs `claude -p` against a stand-in answering with `script`; resolves when Claude exits. */
    async function runClaude(script: ScriptedTurn[], args: string[] = []) {
      const served = await startAnthropicStandIn(script);
      standIn = served;
      const home = path.dirname(configDir);
      const tmp = path.join(home, 'tmp');
      mkdirSync(tmp, { recursive: true });
      return runClaudePrint({
        binary: claude.path!,
        sandbox: { workspace: app.workspace, home, configDir, tmp },
        baseUrl: served.baseUrl,
        prompt: 'Capitalise the Greek letters in greek.txt',
        args,
        env: { DIFFTRAY_HOME: path.join(app.home, '.difftray') },
        timeoutMs: 60_000,
        progress: () => `the stand-in served ${served.turnsServed()} of ${script.length} turns`,
      });
    }

    /** Waits for `what` in the page, failing at once (with Claude's output) if Claude exits first. */
    async function shown(locator: Locator, run: Promise<ClaudePrintResult>, what: string): Promise<void> {
      const exited = run.then((result) => {
        throw new Error(
          `claude -p exited (${result.exitCode}) before ${what} appeared:\n${result.stdout}\n${result.stderr}`,
        );
      });
      await Promise.race([locator.waitFor({ timeout: 30_000 }), exited]);
    }

    const button = (name: string) => page.getByRole('button', { name, exact: true });
    const noteBox = () => page.getByRole('textbox', { name: 'Note to the agent' });

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
      const file = path.join(app.workspace, 'greek.txt');
      writeFileSync(file, BASE);
      const run = runClaude(editScript(file));

      await shown(page.locator('#dt-review-title', { hasText: 'Edit greek.txt' }), run, 'the review');
      await page.getByRole('button', { name: 'Accept hunk 1', exact: true }).click();
      await page.getByRole('button', { name: 'Reject hunk 2', exact: true }).click();
      await noteBox().fill('Keep theta lowercase: it is a variable name.');
      await screenshot(page, 'claude-hooks-partial');
      await button('Submit').click();

      const result = await run;
      expect(result.exitCode, result.stderr).toBe(0);
      expect(readFileSync(file, 'utf8')).toBe(HUNK_1_ONLY);
      const edit = standIn!.toolResultOfTurn(1);
      expect(edit?.isError).toBe(false);
      expect(standIn!.lastMessageText()).toContain('Keep theta lowercase: it is a variable name.');
      expect(standIn!.lastMessageText()).toMatch(/line 8/);
      // 2.1.197 puts the hook's context beside the tool result; 2.1.332 sends it as a system message.
      expect(standIn!.contextAfterTurn(1)).toEqual([
        {
          placement: HOOK_CONTEXT_PLACEMENT[claude.version],
          text: expect.stringMatching(/line 8[^]*Keep theta lowercase: it is a variable name\./),
        },
      ]);
    });

    it('a file with a byte-order mark and no final newline: hunk 1 accepted, hunk 2 rejected, written byte for byte', async () => {
      const file = path.join(app.workspace, 'greek.txt');
      writeFileSync(file, BOM + UNTERMINATED(BASE));
      const run = runClaude(editScript(file, UNTERMINATED(BASE), UNTERMINATED(EDITED)));

      await shown(page.locator('#dt-review-title', { hasText: 'Edit greek.txt' }), run, 'the review');
      await page.getByRole('button', { name: 'Accept hunk 1', exact: true }).click();
      await page.getByRole('button', { name: 'Reject hunk 2', exact: true }).click();
      await button('Submit').click();

      const result = await run;
      expect(result.exitCode, result.stderr).toBe(0);
      expect(standIn!.toolResultOfTurn(1)?.isError, standIn!.toolResultOfTurn(1)?.text).toBe(false);
      expect(readFileSync(file, 'utf8')).toBe(BOM + UNTERMINATED(HUNK_1_ONLY));
    });

    it('a Write over a file with a byte-order mark: the mark stays, hunk 1 accepted, hunk 2 rejected', async () => {
      const file = path.join(app.workspace, 'greek.txt');
      writeFileSync(file, BOM + BASE);
      // The model writes the whole text without the mark (2.1.332 never shows it the mark).
      const run = runClaude([
        { tool: 'Read', input: { file_path: file } },
        { tool: 'Write', input: { file_path: file, content: EDITED } },
        { text: 'Done.' },
      ]);

      await shown(page.locator('#dt-review-title', { hasText: 'Write greek.txt' }), run, 'the review');
      expect(await page.locator('[data-hunk]').count()).toBe(2);
      await page.getByRole('button', { name: 'Accept hunk 1', exact: true }).click();
      await page.getByRole('button', { name: 'Reject hunk 2', exact: true }).click();
      await button('Submit').click();

      const result = await run;
      expect(result.exitCode, result.stderr).toBe(0);
      expect(standIn!.toolResultOfTurn(1)?.isError, standIn!.toolResultOfTurn(1)?.text).toBe(false);
      expect(readFileSync(file, 'utf8')).toBe(BOM + HUNK_1_ONLY);
    });

    it('a trailing-space line that Claude Code’s own cleanup would strip stays as the reviewer kept it', async () => {
      // Claude Code strips trailing spaces from the model's new_string (not in .md files) before the hook
      // sees it, so the proposal changes line 4 as well: three hunks. The reviewer keeps line 4 as it was.
      const spaced = BASE.replace('delta', 'delta   ');
      const file = path.join(app.workspace, 'greek.txt');
      writeFileSync(file, spaced);
      const run = runClaude(editScript(file, spaced, EDITED.replace('delta', 'delta   ')));

      await shown(page.locator('#dt-review-title', { hasText: 'Edit greek.txt' }), run, 'the review');
      await page.getByRole('button', { name: 'Reject hunk 2', exact: true }).click();
      expect(await page.locator('[data-hunk]').count()).toBe(3);
      await button('Submit').click();

      const result = await run;
      expect(result.exitCode, result.stderr).toBe(0);
      expect(readFileSync(file, 'utf8')).toBe(EDITED.replace('delta', 'delta   '));
    });

    it('reject with a note: the file is untouched and the model gets the note as the tool error', async () => {
      const file = path.join(app.workspace, 'greek.txt');
      writeFileSync(file, BASE);
      const run = runClaude(editScript(file));

      await shown(page.locator('#dt-review-title', { hasText: 'Edit greek.txt' }), run, 'the review');
      await noteBox().fill('Wrong file: the letters live in constants.ts.');
      await button('Reject…').click();
      await page
        .getByRole('dialog', { name: 'Reject review' })
        .getByRole('button', { name: 'Reject review' })
        .click();

      const result = await run;
      expect(result.exitCode, result.stderr).toBe(0);
      expect(readFileSync(file, 'utf8')).toBe(BASE);
      const edit = standIn!.toolResultOfTurn(1);
      expect(edit).toMatchObject({ isError: true });
      expect(edit!.text).toContain('Wrong file: the letters live in constants.ts.');
    });

    it('a Bash command denied with a note never runs, and the model reads why', async () => {
      const marker = path.join(app.workspace, 'ran.txt');
      const run = runClaude([
        { tool: 'Bash', input: { command: `touch ${marker}`, description: 'Mark the run' } },
        { text: 'Done.' },
      ]);

      const card = page.getByTestId('approval-card');
      await shown(card.getByText(`touch ${marker}`), run, 'the approval card');
      await card.getByText('Mark the run').waitFor();
      await noteBox().fill('No side effects in this task.');
      await button('Deny').click();

      const result = await run;
      expect(result.exitCode, result.stderr).toBe(0);
      expect(existsSync(marker)).toBe(false);
      const bash = standIn!.toolResultOfTurn(0);
      expect(bash).toMatchObject({ isError: true });
      expect(bash!.text).toContain('No side effects in this task.');
    });
  });
});
