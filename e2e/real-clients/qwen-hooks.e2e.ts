/**
 * The real Qwen Code CLI (0.24.4) reviewed through DiffTray's hooks, decided in Chromium. The person's
 * setup step is run as is (`difftray setup qwen`, the built CLI, HOME in the test's temp home); IDE mode
 * is off, so edits reach DiffTray only through the hooks. Qwen runs interactive in tmux in "Ask
 * permissions" (`tools.approvalMode: "default"`), the one mode where PermissionRequest fires: that
 * hook's answer allows (with the whole rewritten input), or denies with the person's words; PostToolUse
 * hands the model the note kept for the call. The model is the loopback stand-in (streamed chat
 * completions). Checked: the bytes Qwen wrote, what its model received next, and that Qwen's own
 * question never showed in its terminal once the hook answered; and that in "auto-edit" an edit is
 * not reviewed at all (Qwen asks nobody, so the hook is never asked). Skipped, saying why, where the
 * CLI, tmux or Chromium is missing.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { messageOf } from '../../shared/error-message';
import { CHROMIUM_PATH } from '../../test/support/chromium';
import type { HeadlessApp } from '../../test/support/headless-app';
import {
  startOpenAiStandIn,
  type OpenAiStandIn,
  type ReceivedToolResult,
  type ScriptedTurn,
} from '../../test/support/openai-stand-in';
import {
  findQwenCode,
  startQwenSession,
  type QwenApprovalMode,
  type QwenSession,
} from '../../test/support/qwen-code';
import { until } from '../../test/support/wait';
import { appPageSession } from '../support/app-page-session';
import { acceptFirstRejectSecond, rejectAll, TWO_HUNKS, waitForReviewOf } from './support/review-in-browser';
import { fileTab, rejectHunk2WithWords } from './support/turn-review-in-browser';

const qwen = findQwenCode();
const skipReason =
  qwen.skipReason ?? (existsSync(CHROMIUM_PATH) ? undefined : `no Chromium at ${CHROMIUM_PATH}`);
if (skipReason) console.warn(`Skipping the real Qwen Code hooks tests: ${skipReason}`);

const BIN = path.resolve('bin', 'difftray.cjs');
/** Each step may take a while on a busy machine: the CLI starts, runs its hooks, and talks to the model. */
const STEP_MS = 60_000;
const FILE_NAME = 'notes.md';
const PROMPT = `Finalize both drafts in ${FILE_NAME}`;
const NOTE = 'Keep the last line a draft: it is still under discussion.';
const ADDED_NAME = 'count.ts';
const ADDED_TEXT = 'export const COUNT = 2;\n';
const COMMENT = 'Say "final", not FINAL: no shouting in the notes.';
/** Qwen's own question in its terminal when it asks the person about a tool call. */
const QWEN_ASKS = /Apply this change\?|Allow execution/;

describe.skipIf(skipReason !== undefined)(
  'the real Qwen Code CLI through its hooks, decided in DiffTray',
  () => {
    const session = appPageSession();
    let running: QwenSession | undefined;
    // Qwen is ended before the app removes its folders: on its way out it still writes under its HOME.
    afterEach(async () => {
      await running?.stop();
      running = undefined;
    });

    interface Started {
      app: HeadlessApp;
      page: Page;
      file: string;
      standIn: OpenAiStandIn;
      cli: QwenSession;
      waitFor: Waiter;
    }

    /**
     * The app and its page, the file to edit, the stand-in answering with `script`, DiffTray's hooks
     * installed by `difftray setup qwen`, and Qwen in its terminal with the prompt sent.
     */
    async function start(
      script: (file: string, workspace: string) => ScriptedTurn[],
      {
        approvalMode = 'default',
        difftrayAway = false,
      }: { approvalMode?: QwenApprovalMode; difftrayAway?: boolean } = {},
    ): Promise<Started> {
      const { app, page } = await session.start();
      const file = path.join(app.workspace, FILE_NAME);
      writeFileSync(file, TWO_HUNKS.base);
      const standIn = await startOpenAiStandIn(script(file, app.workspace));
      session.afterTest(() => standIn.close());
      const cli = startQwenSession({
        cli: qwen.path!,
        workspace: app.workspace,
        home: app.home,
        tmp: app.tmpDir,
        baseUrl: standIn.baseUrl,
        approvalMode,
        // The hook looks for DiffTray where none runs.
        env: difftrayAway ? { DIFFTRAY_HOME: path.join(app.home, 'no-difftray-here') } : {},
        afterSettings: setUpHooks,
      });
      running = cli;
      const waitFor = waiter(cli, standIn);
      // Its input box is drawn once its start-up is done; typed earlier, a prompt is lost.
      await waitFor(
        () => (cli.screen().includes('Type your message') ? true : undefined),
        "Qwen's input box",
      );
      cli.type(PROMPT);
      await waitFor(() => (cli.screen().includes(PROMPT) ? true : undefined), 'the prompt typed into Qwen');
      cli.press('Enter');
      return { app, page, file, standIn, cli, waitFor };
    }

    /** The edit's review on DiffTray's page, with Qwen's terminal not asking anything meanwhile. */
    async function editUnderReview({ page, cli, standIn }: Started): Promise<void> {
      try {
        await waitForReviewOf(page, FILE_NAME, STEP_MS);
      } catch (error) {
        throw new Error(`${messageOf(error)}${cliState(cli, standIn)}`, { cause: error });
      }
      // The hook holds Qwen's scheduler before it would ask: its terminal shows no question of its own.
      expect(cli.screen()).not.toMatch(QWEN_ASKS);
    }

    /** The result of the call of `tool` as the model received it (sent with Qwen's next request). */
    const resultOf = ({ standIn, waitFor }: Started, tool: string): Promise<ReceivedToolResult> =>
      waitFor(
        () => standIn.toolResults().find((result) => result.tool === tool),
        `the result of ${tool} to reach the model`,
      );

    it(
      'hunk 1 accepted, hunk 2 rejected, a note: Qwen writes exactly hunk 1, asks nothing, and its model reads the note',
      async () => {
        const started = await start(editScript);
        const { page, file, cli, standIn, waitFor } = started;
        await editUnderReview(started);
        // Nothing is written while the person decides.
        expectFileBytes(file, TWO_HUNKS.base);

        await acceptFirstRejectSecond(page, { note: NOTE });

        // No key pressed in Qwen's terminal: the hook's answer was Qwen's permission.
        const result = await resultOf(started, 'edit');
        expectFileBytes(file, TWO_HUNKS.composed);
        expect(result.text).toMatch(new RegExp(`^The file: ${escapeRegExp(file)} has been updated\\.`));
        // PostToolUse's additionalContext: the rejected lines and the note, in the next request.
        await waitFor(
          () => (standIn.turnsServed() === 3 ? true : undefined),
          'the model to get its last turn',
        );
        // Qwen appends it to the tool's result after a blank line.
        expect(result.text).toContain(
          `\n\nThe reviewer accepted only part of your change to ${file} in DiffTray. Rejected: line 9.`,
        );
        expect(result.text.endsWith(`Note from the reviewer: ${NOTE}`)).toBe(true);
        await waitFor(
          () => (cli.screen().includes('Done.') ? true : undefined),
          "the model's last words on screen",
        );
        expect(cli.screen()).not.toMatch(QWEN_ASKS);
        // The note was handed over once and is not kept any longer.
        expect(heldNotes(started.app)).toEqual([]);
      },
      5 * STEP_MS,
    );

    it(
      'rejected with a reason: the file is untouched, Qwen asks nothing, and the model gets the reason',
      async () => {
        const started = await start(editScript);
        const { page, file, cli, standIn, waitFor } = started;
        await editUnderReview(started);

        await rejectAll(page, 'Wrong file: the drafts live in plan.md.');

        const result = await resultOf(started, 'edit');
        expectFileBytes(file, TWO_HUNKS.base);
        // Qwen's result for a call its PermissionRequest hook denied is the hook's message as is; the turn
        // goes on.
        expect(result.text).toBe('Wrong file: the drafts live in plan.md.');
        await waitFor(
          () => (standIn.turnsServed() === 3 ? true : undefined),
          'the model to get its last turn',
        );
        expect(cli.screen()).not.toMatch(QWEN_ASKS);
        expect(heldNotes(started.app)).toEqual([]);
      },
      5 * STEP_MS,
    );

    it(
      'a shell command denied with a note in its approval card never runs, and the model reads the note',
      async () => {
        const started = await start((_file, workspace) => [
          {
            tool: 'run_shell_command',
            input: { command: `touch ${path.join(workspace, 'ran.txt')}`, description: 'Mark the run' },
          },
          { text: 'Done.' },
        ]);
        const { app, page, cli, standIn, waitFor } = started;
        const marker = path.join(app.workspace, 'ran.txt');

        const card = page.getByTestId('approval-card');
        try {
          await card.getByText(`touch ${marker}`).waitFor({ timeout: STEP_MS });
        } catch (error) {
          throw new Error(`The approval card did not appear${cliState(cli, standIn)}`, { cause: error });
        }
        await card.getByText('Mark the run').waitFor();
        expect(cli.screen()).not.toMatch(QWEN_ASKS);
        await page.getByRole('textbox', { name: 'Note to the agent' }).fill('No side effects in this task.');
        await page.getByRole('button', { name: 'Deny', exact: true }).click();

        const result = await resultOf(started, 'run_shell_command');
        expect(existsSync(marker)).toBe(false);
        expect(result.text).toBe('No side effects in this task.');
        await waitFor(
          () => (standIn.turnsServed() === 2 ? true : undefined),
          'the model to get its last turn',
        );
        expect(cli.screen()).not.toMatch(QWEN_ASKS);
      },
      5 * STEP_MS,
    );

    it(
      'DiffTray not reachable: no decision, and Qwen asks in its terminal as it would without DiffTray',
      async () => {
        const started = await start(editScript, { difftrayAway: true });
        const { file, cli, standIn, waitFor } = started;

        await waitFor(() => (QWEN_ASKS.test(cli.screen()) ? true : undefined), "Qwen's own question");
        expectFileBytes(file, TWO_HUNKS.base);
        // "1. Yes, allow once" is preselected.
        cli.press('Enter');
        await resultOf(started, 'edit');
        expectFileBytes(file, TWO_HUNKS.proposed);
        expect(started.app.runtime.core.queue.summaries()).toEqual([]);
        await waitFor(
          () => (standIn.turnsServed() === 3 ? true : undefined),
          'the model to get its last turn',
        );
      },
      5 * STEP_MS,
    );

    it(
      'in approval mode "auto-edit" Qwen asks nobody: edits land at once and wait for the turn review (Stop); hunk 2 reverted, a comment and a note, and Qwen goes on with them',
      async () => {
        const started = await start(
          (file, workspace) => [
            ...unaskedTurn(file, workspace),
            // The model's answer to the reviewer: it reads the file again, edits it, and is done again.
            { tool: 'read_file', input: { file_path: file } },
            { tool: 'edit', input: { file_path: file, old_string: '\na\n', new_string: '\nA\n' } },
            { text: 'Done again.' },
          ],
          { approvalMode: 'auto-edit' },
        );
        const { app, page, file, cli, standIn, waitFor } = started;
        const added = path.join(app.workspace, ADDED_NAME);

        await resultOf(started, 'edit');
        // What Qwen does in auto-edit: the proposal written as is, nothing asked before the turn ends.
        expectFileBytes(file, TWO_HUNKS.proposed);
        expect(app.runtime.core.queue.summaries()).toEqual([]);

        await turnReviewShown(started);
        expectFileBytes(added, ADDED_TEXT);
        expect(standIn.turnsServed()).toBe(4);
        await expect.poll(() => fileTab(page, FILE_NAME).count()).toBe(1);
        await expect.poll(() => fileTab(page, ADDED_NAME).count()).toBe(1);
        await rejectHunk2WithWords(page, { line: 2, comment: COMMENT, note: NOTE });

        // Qwen went on: its next edit came, unasked again, and the next turn review shows only it.
        const answered = TWO_HUNKS.composed.replace('\na\n', '\nA\n');
        await waitFor(
          () => (readFileSync(file, 'utf8') === answered ? true : undefined),
          "the model's next edit on disk",
        );
        await turnReviewShown(started);
        await expect.poll(() => fileTab(page, ADDED_NAME).count(), { timeout: STEP_MS }).toBe(0);
        await expect.poll(() => page.locator('[data-hunk]').count(), { timeout: STEP_MS }).toBe(1);
        const told = standIn.userTexts().find((text) => text.includes('DiffTray')) ?? '';
        expect(told).toContain(NOTE);
        expect(told).toMatch(/notes\.md: line 9/);
        expect(told).toContain(`notes.md:2 ("first FINAL"): ${COMMENT}`);
        expect(told).not.toContain(ADDED_NAME);
        expectFileBytes(added, ADDED_TEXT);
        await page.getByRole('button', { name: 'Submit', exact: true }).click();

        // Kept without a word: the turn ends after "Done again.", nothing more asked of the model.
        await waitFor(() => (cli.screen().includes('Done again.') ? true : undefined), 'the end of the turn');
        await page.getByRole('heading', { name: 'No reviews waiting' }).waitFor();
        expect(standIn.turnsServed()).toBe(7);
        expectFileBytes(file, answered);
        expect(cli.screen()).not.toMatch(QWEN_ASKS);
      },
      6 * STEP_MS,
    );

    it(
      'in "auto-edit", keeping the whole turn without a word ends it: no further request',
      async () => {
        const started = await start(unaskedTurn, { approvalMode: 'auto-edit' });
        const { page, file, standIn } = started;

        await turnReviewShown(started);
        await page.getByRole('button', { name: 'Submit', exact: true }).click();
        await page.getByRole('heading', { name: 'No reviews waiting' }).waitFor();
        // Time for a request that should not come.
        await new Promise((resolve) => setTimeout(resolve, 2000));
        expect(standIn.turnsServed()).toBe(4);
        expectFileBytes(file, TWO_HUNKS.proposed);
      },
      5 * STEP_MS,
    );

    /** The turn review of the prompt on DiffTray's page. */
    async function turnReviewShown({ app, page, cli, standIn }: Started): Promise<void> {
      const title = `Qwen Code · ${path.basename(app.workspace)}: ${PROMPT}`;
      try {
        await page.locator('#dt-review-title', { hasText: title }).waitFor({ timeout: STEP_MS });
      } catch (error) {
        throw new Error(`The turn review did not appear${cliState(cli, standIn)}`, { cause: error });
      }
    }
  },
);

/** `difftray setup qwen`, as the person runs it, with HOME in the test's home. */
function setUpHooks(home: string): void {
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home };
  delete env.QWEN_HOME;
  const setup = spawnSync(process.execPath, [BIN, 'setup', 'qwen'], { env, encoding: 'utf8' });
  expect(setup.status, `${setup.stdout}\n${setup.stderr}`).toBe(0);
}

/** The model reads the file, edits both places in one edit, then says it is done. */
function editScript(file: string): ScriptedTurn[] {
  return [
    { tool: 'read_file', input: { file_path: file } },
    {
      tool: 'edit',
      input: {
        file_path: file,
        old_string: 'first draft\na\nb\nc\nd\ne\nf\nlast draft',
        new_string: 'first FINAL\na\nb\nc\nd\ne\nf\nlast FINAL',
      },
    },
    { text: 'Done.' },
  ];
}

/** The model reads the file, edits both places in one edit (two hunks), writes a new file, is done. */
function unaskedTurn(file: string, workspace: string): ScriptedTurn[] {
  return [
    ...editScript(file).slice(0, 2),
    { tool: 'write_file', input: { file_path: path.join(workspace, ADDED_NAME), content: ADDED_TEXT } },
    { text: 'Done.' },
  ];
}

function heldNotes(app: HeadlessApp): string[] {
  const folder = path.join(app.home, '.difftray', 'hook-notes');
  return existsSync(folder) ? readdirSync(folder) : [];
}

type Waiter = <T>(probe: () => T | undefined, what: string) => Promise<T>;

/** Bounded waits that fail with what Qwen's terminal shows, its debug log, and the model turns served. */
function waiter(cli: QwenSession, standIn: OpenAiStandIn): Waiter {
  return async (probe, what) => {
    try {
      return await until(probe, what, STEP_MS);
    } catch (error) {
      throw new Error(`${messageOf(error)}${cliState(cli, standIn)}`, { cause: error });
    }
  };
}

function cliState(cli: QwenSession, standIn: OpenAiStandIn): string {
  return ` (model turns served: ${standIn.turnsServed()})\n--- Qwen's screen ---\n${cli.screen()}\n--- its debug log ---\n${cli.logTail()}`;
}

/** The file holds exactly `text`, byte for byte (compared as text first, for a readable diff). */
function expectFileBytes(file: string, text: string): void {
  expect(readFileSync(file, 'utf8')).toBe(text);
  expect(readFileSync(file).equals(Buffer.from(text, 'utf8'))).toBe(true);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
