/**
 * The turn review with the real GitHub Copilot CLI (1.0.102, `copilot -p --allow-all-tools`), decided in
 * Chromium (issue 26): DiffTray's settings let Copilot's edits through to wait for the turn
 * (`turnReview.copilot.edits = "turn"`); the hooks are installed by `difftray setup copilot`. The model
 * edits two hunks of a file and creates a new one unasked; only when the turn ends (agentStop) does one
 * review show both. The person reverts hunk 2, comments on a line and writes a note: the disk loses hunk
 * 2, the new file stays, and Copilot goes on with a message that says so — its next edit lands too.
 * Keeping everything without a word ends the turn.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_PATH } from '../../test/support/chromium';
import { COPILOT_CLI_VERSION, findCopilotBinary } from '../../test/support/copilot-cli';
import { runCopilotPrint, type CopilotPrintResult } from '../../test/support/copilot-print';
import { runDiffTraySetup } from '../../test/support/difftray-setup';
import { lines } from '../../test/support/fixtures';
import type { HeadlessApp } from '../../test/support/headless-app';
import {
  startOpenAiStandIn,
  type OpenAiStandIn,
  type ScriptedTurn,
} from '../../test/support/openai-stand-in';
import { makeTempDir } from '../../test/support/temp';
import { appPageSession } from '../support/app-page-session';
import { TWO_HUNKS } from './support/review-in-browser';
import {
  editsWithTheTurn,
  fileTab,
  rejectHunk2WithWords,
  shownBeforeExit,
} from './support/turn-review-in-browser';

const copilot = findCopilotBinary();
const skipReason =
  copilot.skipReason ?? (existsSync(CHROMIUM_PATH) ? undefined : `no Chromium at ${CHROMIUM_PATH}`);
if (skipReason) console.warn(`Skipping the real Copilot CLI turn review tests: ${skipReason}`);

/** Copilot unpacks itself the first time it starts: the first step may take a while. */
const STEP_MS = 90_000;
const FILE_NAME = 'notes.md';
const ADDED_NAME = 'count.ts';
const ADDED_TEXT = lines('export const COUNT = 2;');
const PROMPT = 'Finalise the notes\nand count them';
const COMMENT = 'Say "final", not FINAL: no shouting in the notes.';
const NOTE = 'Keep the last line a draft: the release is not final yet.';
/** What the model's answer to the reviewer leaves: hunk 1 kept, and line 3 changed. */
const ANSWERED = TWO_HUNKS.composed.replace('\na\n', '\nA\n');

describe.skipIf(skipReason !== undefined)(
  `the real Copilot CLI ${COPILOT_CLI_VERSION}: a whole turn, reviewed when it ends (agentStop)`,
  () => {
    const session = appPageSession();
    let app: HeadlessApp;
    let page: Page;
    let standIn: OpenAiStandIn;
    let file: string;
    let added: string;
    let cache: ReturnType<typeof makeTempDir>;

    beforeAll(() => {
      cache = makeTempDir('copilot-turn-cache');
    });
    afterAll(() => cache?.cleanup());

    async function start(): Promise<void> {
      ({ app, page } = await session.start({ beforeStart: editsWithTheTurn('copilot') }));
      file = path.join(app.workspace, FILE_NAME);
      added = path.join(app.workspace, ADDED_NAME);
      writeFileSync(file, TWO_HUNKS.base);
      runDiffTraySetup('copilot', { HOME: app.home, COPILOT_HOME: path.join(app.home, '.copilot') });
    }

    async function runCopilot(script: ScriptedTurn[]): Promise<CopilotPrintResult> {
      const served = await startOpenAiStandIn(script);
      standIn = served;
      session.afterTest(() => served.close());
      const run = runCopilotPrint({
        binary: copilot.path!,
        workspace: app.workspace,
        home: app.home,
        tmp: app.tmpDir,
        cacheHome: cache.dir,
        baseUrl: served.baseUrl,
        prompt: PROMPT,
        env: { DIFFTRAY_HOME: path.join(app.home, '.difftray') },
        timeoutMs: 3 * STEP_MS,
        progress: () => `the stand-in served ${served.turnsServed()} of ${script.length} turns`,
      });
      session.afterTest(() => run.catch(() => undefined));
      return run;
    }

    const transcriptOf = (run: Promise<CopilotPrintResult>) =>
      run.then(
        (result) =>
          `copilot -p (${result.exitCode}, model turns served: ${standIn.turnsServed()}):\n` +
          `${result.stdout}\n${result.stderr}`,
      );

    /** The model views the file, edits both draft lines in one edit (two hunks), creates a new file. */
    const unaskedTurn = (): ScriptedTurn[] => [
      { tool: 'view', input: { path: file } },
      {
        tool: 'edit',
        input: {
          path: file,
          old_str: 'first draft\na\nb\nc\nd\ne\nf\nlast draft',
          new_str: 'first FINAL\na\nb\nc\nd\ne\nf\nlast FINAL',
        },
      },
      { tool: 'create', input: { path: added, file_text: ADDED_TEXT } },
      { text: 'Done.' },
    ];

    const turnReview = () =>
      page.locator('#dt-review-title', {
        hasText: `GitHub Copilot CLI · ${path.basename(app.workspace)}: ${PROMPT.split('\n')[0]}`,
      });

    it(
      'hunk 2 reverted, a comment and a note: the disk loses hunk 2 only, and Copilot goes on with them',
      async () => {
        await start();
        const run = runCopilot([
          ...unaskedTurn(),
          // The model's answer to the reviewer: it views the file again, edits it, and is done again.
          { tool: 'view', input: { path: file } },
          { tool: 'edit', input: { path: file, old_str: '\na\n', new_str: '\nA\n' } },
          { text: 'Done again.' },
        ]);

        await shownBeforeExit(turnReview(), transcriptOf(run), 'the turn review', STEP_MS);
        // Nothing was asked before the turn ended: both writes are on disk already.
        expect(readFileSync(file, 'utf8')).toBe(TWO_HUNKS.proposed);
        expect(readFileSync(added, 'utf8')).toBe(ADDED_TEXT);
        expect(standIn.turnsServed()).toBe(4);
        await expect.poll(() => fileTab(page, FILE_NAME).count()).toBe(1);
        await expect.poll(() => fileTab(page, ADDED_NAME).count()).toBe(1);

        await rejectHunk2WithWords(page, { line: 2, comment: COMMENT, note: NOTE });

        // Copilot went on: its next edit came, unasked again, and the next turn review shows only it.
        await expect.poll(() => readFileSync(file, 'utf8'), { timeout: STEP_MS }).toBe(ANSWERED);
        await shownBeforeExit(turnReview(), transcriptOf(run), 'the second turn review', STEP_MS);
        await expect.poll(() => fileTab(page, ADDED_NAME).count(), { timeout: STEP_MS }).toBe(0);
        await expect.poll(() => page.locator('[data-hunk]').count(), { timeout: STEP_MS }).toBe(1);
        const told = standIn.userTexts().find((text) => text.includes('DiffTray')) ?? '';
        expect(told).toContain(NOTE);
        expect(told).toMatch(/notes\.md: line 9/);
        expect(told).toContain(`notes.md:2 ("first FINAL"): ${COMMENT}`);
        expect(told).not.toContain(ADDED_NAME);
        expect(readFileSync(added, 'utf8')).toBe(ADDED_TEXT);
        await page.getByRole('button', { name: 'Submit', exact: true }).click();

        const result = await run;
        expect(result.exitCode, `${result.stdout}\n${result.stderr}`).toBe(0);
        // Kept without a word: the turn ended after "Done again.".
        expect(standIn.turnsServed()).toBe(7);
        expect(readFileSync(file, 'utf8')).toBe(ANSWERED);
      },
      5 * STEP_MS,
    );

    it(
      'keeping everything without a word ends the turn: no further request',
      async () => {
        await start();
        const run = runCopilot(unaskedTurn());

        await shownBeforeExit(turnReview(), transcriptOf(run), 'the turn review', STEP_MS);
        await expect.poll(() => fileTab(page, ADDED_NAME).count()).toBe(1);
        await page.getByRole('button', { name: 'Submit', exact: true }).click();

        const result = await run;
        expect(result.exitCode, `${result.stdout}\n${result.stderr}`).toBe(0);
        expect(standIn.turnsServed()).toBe(4);
        expect(readFileSync(file, 'utf8')).toBe(TWO_HUNKS.proposed);
        expect(readFileSync(added, 'utf8')).toBe(ADDED_TEXT);
      },
      5 * STEP_MS,
    );
  },
);
