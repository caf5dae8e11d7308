/**
 * The turn review with the real Codex CLI (`codex exec`, pinned 0.171.0), decided in Chromium (issue 26):
 * DiffTray's settings let Codex's edits through to wait for the turn (`turnReview.codex.edits = "turn"`);
 * the hooks are installed by `difftray setup codex` (run untrusted with `--dangerously-bypass-hook-trust`:
 * trusting them is the person's step). The model's one patch updates two hunks of a file and adds another
 * unasked; only when the turn ends (Stop) does one review show both. The person reverts hunk 2, comments
 * on a line and writes a note: the disk loses hunk 2, the new file stays, and Codex goes on with a user
 * message that says so — its next patch lands too. Keeping everything without a word ends the turn.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { CHROMIUM_PATH } from '../../test/support/chromium';
import { CODEX_VERSION, findCodexBinary } from '../../test/support/codex-cli';
import {
  makeCodexSandbox,
  runCodexTurn,
  type CodexSandbox,
  type CodexTurn,
} from '../../test/support/codex-turn';
import { runDiffTraySetup } from '../../test/support/difftray-setup';
import { lines } from '../../test/support/fixtures';
import type { HeadlessApp } from '../../test/support/headless-app';
import {
  applyPatchTurn,
  messagesIn,
  textTurn,
  type ResponsesTurn,
} from '../../test/support/responses-stand-in';
import { appPageSession } from '../support/app-page-session';
import { TWO_HUNKS } from './support/review-in-browser';
import {
  editsWithTheTurn,
  fileTab,
  rejectHunk2WithWords,
  shownBeforeExit,
} from './support/turn-review-in-browser';

const codex = findCodexBinary();
const skipReason =
  codex.skipReason ?? (existsSync(CHROMIUM_PATH) ? undefined : `no Chromium at ${CHROMIUM_PATH}`);
if (skipReason) console.warn(`Skipping the real Codex CLI turn review tests: ${skipReason}`);

const STEP_MS = 60_000;
const FILE_NAME = 'notes.md';
const ADDED_NAME = 'count.ts';
const ADDED_TEXT = lines('export const COUNT = 2;');
const PROMPT = 'Finalise the notes\nand count them';

/** One patch: both draft lines of `FILE_NAME` final (two hunks), and `ADDED_NAME` added. */
const TURN_PATCH = [
  '*** Begin Patch',
  `*** Update File: ${FILE_NAME}`,
  '@@',
  '-first draft',
  '+first FINAL',
  '@@',
  '-last draft',
  '+last FINAL',
  `*** Add File: ${ADDED_NAME}`,
  '+export const COUNT = 2;',
  '*** End Patch',
  '',
].join('\n');

/** The model's answer to the reviewer: one more change, to line 3. */
const ANSWER_PATCH = [
  '*** Begin Patch',
  `*** Update File: ${FILE_NAME}`,
  '@@',
  '-a',
  '+A',
  '*** End Patch',
  '',
].join('\n');

const COMMENT = 'Say "final", not FINAL: no shouting in the notes.';
const NOTE = 'Keep the last line a draft: the release is not final yet.';

describe.skipIf(skipReason !== undefined)(
  `the real Codex CLI ${CODEX_VERSION}: a whole turn, reviewed when it ends (Stop)`,
  () => {
    const session = appPageSession();
    let app: HeadlessApp;
    let page: Page;
    let box: CodexSandbox;

    const start = async () => {
      ({ app, page } = await session.start({ beforeStart: editsWithTheTurn('codex') }));
      box = makeCodexSandbox('codex-turn', { workspace: app.workspace });
      session.afterTest(() => box.cleanup());
      runDiffTraySetup('codex', { HOME: box.home, CODEX_HOME: box.codexHome });
      box.writeFiles({ [FILE_NAME]: TWO_HUNKS.base });
    };

    const runCodex = (script: ResponsesTurn[]): Promise<CodexTurn> => {
      const run = runCodexTurn(box, {
        binary: codex.path!,
        script,
        prompt: PROMPT,
        bypassHookTrust: true,
        env: { DIFFTRAY_HOME: path.join(app.home, '.difftray') },
        timeoutMs: 3 * STEP_MS,
      });
      session.afterTest(() => run.catch(() => undefined));
      return run;
    };

    const transcriptOf = (run: Promise<CodexTurn>) =>
      run.then(({ result }) => `codex exec (${result.exitCode}):\n${result.stdout}\n${result.stderr}`);

    const finished = async (run: Promise<CodexTurn>): Promise<CodexTurn> => {
      const turn = await run;
      const transcript = `${turn.result.stdout}\n${turn.result.stderr}`;
      expect(turn.result.exitCode, `codex exec failed:\n${transcript}`).toBe(0);
      // A hook answer Codex refuses is a failed hook, after which Codex ends the turn as it is.
      expect(turn.result.stderr, transcript).not.toMatch(/hook: (Stop|UserPromptSubmit|PreToolUse) Failed/);
      return turn;
    };

    const turnReview = () =>
      page.locator('#dt-review-title', {
        hasText: `Codex CLI · ${path.basename(app.workspace)}: ${PROMPT.split('\n')[0]}`,
      });
    const fileIn = (relative: string) => path.join(app.workspace, relative);

    it('hunk 2 reverted, a comment and a note: the disk loses hunk 2 only, and Codex goes on with them', async () => {
      await start();
      const run = runCodex([
        applyPatchTurn(TURN_PATCH),
        textTurn('Done.'),
        applyPatchTurn(ANSWER_PATCH),
        textTurn('Done again.'),
      ]);

      await shownBeforeExit(turnReview(), transcriptOf(run), 'the turn review', STEP_MS);
      // Nothing was asked before the turn ended: the whole patch is on disk already.
      expect(readFileSync(fileIn(FILE_NAME), 'utf8')).toBe(TWO_HUNKS.proposed);
      expect(readFileSync(fileIn(ADDED_NAME), 'utf8')).toBe(ADDED_TEXT);
      await expect.poll(() => fileTab(page, FILE_NAME).count()).toBe(1);
      await expect.poll(() => fileTab(page, ADDED_NAME).count()).toBe(1);

      await rejectHunk2WithWords(page, { line: 2, comment: COMMENT, note: NOTE });

      // Codex went on: its next patch came, unasked again, and the next turn review shows only it.
      const answered = TWO_HUNKS.composed.replace('\na\n', '\nA\n');
      await expect.poll(() => readFileSync(fileIn(FILE_NAME), 'utf8'), { timeout: STEP_MS }).toBe(answered);
      await shownBeforeExit(turnReview(), transcriptOf(run), 'the second turn review', STEP_MS);
      await expect.poll(() => fileTab(page, ADDED_NAME).count(), { timeout: STEP_MS }).toBe(0);
      await expect.poll(() => page.locator('[data-hunk]').count(), { timeout: STEP_MS }).toBe(1);
      expect(readFileSync(fileIn(ADDED_NAME), 'utf8')).toBe(ADDED_TEXT);
      await page.getByRole('button', { name: 'Submit', exact: true }).click();

      const turn = await finished(run);
      // The request after the first "Done." carries the reviewer's words as a user message.
      const requests = turn.standIn.requestsReceived();
      const told = messagesIn(requests[2], 'user').find((text) => text.includes('DiffTray')) ?? '';
      expect(told).toContain(NOTE);
      expect(told).toMatch(/notes\.md: line 9/);
      expect(told).toContain(`notes.md:2 ("first FINAL"): ${COMMENT}`);
      expect(told).not.toContain(ADDED_NAME);
      // Kept without a word: the turn ended after "Done again.".
      expect(turn.standIn.turnsServed()).toBe(4);
      expect(requests).toHaveLength(4);
      expect(readFileSync(fileIn(FILE_NAME), 'utf8')).toBe(answered);
    });

    it('keeping everything without a word ends the turn: no further request', async () => {
      await start();
      const run = runCodex([applyPatchTurn(TURN_PATCH), textTurn('Done.')]);

      await shownBeforeExit(turnReview(), transcriptOf(run), 'the turn review', STEP_MS);
      await expect.poll(() => fileTab(page, ADDED_NAME).count()).toBe(1);
      await page.getByRole('button', { name: 'Submit', exact: true }).click();

      const turn = await finished(run);
      expect(turn.standIn.requestsReceived()).toHaveLength(2);
      expect(readFileSync(fileIn(FILE_NAME), 'utf8')).toBe(TWO_HUNKS.proposed);
      expect(readFileSync(fileIn(ADDED_NAME), 'utf8')).toBe(ADDED_TEXT);
    });
  },
);
