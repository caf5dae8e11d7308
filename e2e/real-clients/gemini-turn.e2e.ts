/**
 * The turn review with the real Gemini CLI (0.61.0, `gemini -p --approval-mode auto_edit`), decided in
 * Chromium (issue 26): DiffTray's settings let Gemini's edits through to wait for the turn
 * (`turnReview.gemini.edits = "turn"`); the hooks are installed by `difftray setup gemini`. The model
 * replaces two hunks of a file and writes a new one unasked; only when the turn ends (AfterAgent) does one
 * review show both. The person reverts hunk 2, comments on a line and writes a note: the disk loses hunk
 * 2, the new file stays, and Gemini goes on with a message that says so — its next edit lands too.
 * Keeping everything without a word ends the turn.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { CHROMIUM_PATH } from '../../test/support/chromium';
import { lines } from '../../test/support/fixtures';
import { findGeminiEntry } from '../../test/support/gemini-cli';
import {
  installDiffTrayGeminiHooks,
  runGeminiPrint,
  type GeminiPrintResult,
} from '../../test/support/gemini-hooks';
import {
  startGeminiStandIn,
  type GeminiStandIn,
  type ScriptedTurn,
} from '../../test/support/gemini-stand-in';
import type { HeadlessApp } from '../../test/support/headless-app';
import { appPageSession } from '../support/app-page-session';
import { TWO_HUNKS } from './support/review-in-browser';
import {
  editsWithTheTurn,
  fileTab,
  rejectHunk2WithWords,
  shownBeforeExit,
} from './support/turn-review-in-browser';

const gemini = findGeminiEntry();
const skipReason =
  gemini.skipReason ?? (existsSync(CHROMIUM_PATH) ? undefined : `no Chromium at ${CHROMIUM_PATH}`);
if (skipReason) console.warn(`Skipping the real Gemini CLI turn review tests: ${skipReason}`);

const STEP_MS = 60_000;
const FILE_NAME = 'notes.md';
const ADDED_NAME = 'count.ts';
const ADDED_TEXT = lines('export const COUNT = 2;');
const PROMPT = 'Finalise the notes\nand count them';
const COMMENT = 'Say "final", not FINAL: no shouting in the notes.';
const NOTE = 'Keep the last line a draft: the release is not final yet.';
/** What the model's answer to the reviewer leaves: hunk 1 kept, and line 3 changed. */
const ANSWERED = TWO_HUNKS.composed.replace('\na\n', '\nA\n');

describe.skipIf(skipReason !== undefined)(
  'the real Gemini CLI: a whole turn, reviewed when it ends (AfterAgent)',
  () => {
    const session = appPageSession();
    let app: HeadlessApp;
    let page: Page;
    let standIn: GeminiStandIn | undefined;
    let file: string;
    let added: string;

    afterEach(async () => {
      await standIn?.close();
      standIn = undefined;
    });

    async function start(): Promise<void> {
      ({ app, page } = await session.start({ beforeStart: editsWithTheTurn('gemini') }));
      file = path.join(app.workspace, FILE_NAME);
      added = path.join(app.workspace, ADDED_NAME);
      writeFileSync(file, TWO_HUNKS.base);
      installDiffTrayGeminiHooks(app.home);
    }

    async function runGemini(script: ScriptedTurn[]): Promise<GeminiPrintResult> {
      const served = await startGeminiStandIn(script);
      standIn = served;
      const tmp = path.join(app.home, 'tmp');
      mkdirSync(tmp, { recursive: true });
      const run = runGeminiPrint({
        entry: gemini.path!,
        workspace: app.workspace,
        home: app.home,
        tmp,
        baseUrl: served.baseUrl,
        prompt: PROMPT,
        approvalMode: 'auto_edit',
        env: { DIFFTRAY_HOME: path.join(app.home, '.difftray') },
        timeoutMs: 4 * STEP_MS,
        progress: () => `the stand-in served ${served.turnsServed()} of ${script.length} turns`,
      });
      session.afterTest(() => run.catch(() => undefined));
      return run;
    }

    const transcriptOf = (run: Promise<GeminiPrintResult>) =>
      run.then(
        (result) =>
          `gemini -p (${result.exitCode}, model turns served: ${standIn?.turnsServed()}):\n` +
          `${result.stdout}\n${result.stderr}`,
      );

    /** The model reads the file, replaces both draft lines in one edit (two hunks), writes a new file. */
    const unaskedTurn = (): ScriptedTurn[] => [
      { tool: 'read_file', input: { file_path: file } },
      {
        tool: 'replace',
        input: {
          file_path: file,
          instruction: 'Mark the first and the last draft line as final.',
          old_string: 'first draft\na\nb\nc\nd\ne\nf\nlast draft',
          new_string: 'first FINAL\na\nb\nc\nd\ne\nf\nlast FINAL',
        },
      },
      { tool: 'write_file', input: { file_path: added, content: ADDED_TEXT } },
      { text: 'Done.' },
    ];

    const turnReview = () =>
      page.locator('#dt-review-title', {
        hasText: `Gemini CLI · ${path.basename(app.workspace)}: ${PROMPT.split('\n')[0]}`,
      });

    it(
      'hunk 2 reverted, a comment and a note: the disk loses hunk 2 only, and Gemini goes on with them',
      async () => {
        await start();
        const run = runGemini([
          ...unaskedTurn(),
          // The model's answer to the reviewer: it reads the file again, edits it, and is done again.
          { tool: 'read_file', input: { file_path: file } },
          {
            tool: 'replace',
            input: { file_path: file, instruction: 'Capital A.', old_string: '\na\n', new_string: '\nA\n' },
          },
          { text: 'Done again.' },
        ]);

        await shownBeforeExit(turnReview(), transcriptOf(run), 'the turn review', STEP_MS);
        // Nothing was asked before the turn ended: both writes are on disk already.
        expect(readFileSync(file, 'utf8')).toBe(TWO_HUNKS.proposed);
        expect(readFileSync(added, 'utf8')).toBe(ADDED_TEXT);
        expect(standIn!.turnsServed()).toBe(4);
        await expect.poll(() => fileTab(page, FILE_NAME).count()).toBe(1);
        await expect.poll(() => fileTab(page, ADDED_NAME).count()).toBe(1);

        await rejectHunk2WithWords(page, { line: 2, comment: COMMENT, note: NOTE });

        // Gemini went on: its next edit came, unasked again, and the next turn review shows only it.
        await expect.poll(() => readFileSync(file, 'utf8'), { timeout: STEP_MS }).toBe(ANSWERED);
        await shownBeforeExit(turnReview(), transcriptOf(run), 'the second turn review', STEP_MS);
        await expect.poll(() => fileTab(page, ADDED_NAME).count(), { timeout: STEP_MS }).toBe(0);
        await expect.poll(() => page.locator('[data-hunk]').count(), { timeout: STEP_MS }).toBe(1);
        const told = standIn!.userTexts().find((text) => text.includes('DiffTray')) ?? '';
        expect(told).toContain(NOTE);
        expect(told).toMatch(/notes\.md: line 9/);
        expect(told).toContain(`notes.md:2 ("first FINAL"): ${COMMENT}`);
        expect(told).not.toContain(ADDED_NAME);
        expect(readFileSync(added, 'utf8')).toBe(ADDED_TEXT);
        await page.getByRole('button', { name: 'Submit', exact: true }).click();

        const result = await run;
        expect(result.exitCode, `${result.stdout}\n${result.stderr}`).toBe(0);
        // Kept without a word: the turn ended after "Done again.".
        expect(standIn!.turnsServed()).toBe(7);
        expect(readFileSync(file, 'utf8')).toBe(ANSWERED);
      },
      5 * STEP_MS,
    );

    it(
      'keeping everything without a word ends the turn: no further request',
      async () => {
        await start();
        const run = runGemini(unaskedTurn());

        await shownBeforeExit(turnReview(), transcriptOf(run), 'the turn review', STEP_MS);
        await expect.poll(() => fileTab(page, ADDED_NAME).count()).toBe(1);
        await page.getByRole('button', { name: 'Submit', exact: true }).click();

        const result = await run;
        expect(result.exitCode, `${result.stdout}\n${result.stderr}`).toBe(0);
        expect(standIn!.turnsServed()).toBe(4);
        expect(readFileSync(file, 'utf8')).toBe(TWO_HUNKS.proposed);
        expect(readFileSync(added, 'utf8')).toBe(ADDED_TEXT);
      },
      5 * STEP_MS,
    );
  },
);
