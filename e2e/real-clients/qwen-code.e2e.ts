/**
 * The real Qwen Code CLI (0.24.4) in IDE mode against DiffTray, decided in DiffTray's window: Qwen runs
 * in a tmux terminal in the app's workspace, its model a loopback stand-in (streamed chat completions)
 * that reads a file and then edits it in two places. The edit opens in DiffTray (openDiff) while Qwen's
 * terminal asks "Apply this change?" too; DiffTray's answer settles that question (Qwen's scheduler
 * takes the IDE's accept as "allow once" with the returned text, its reject as "no"). Accepting hunk 1
 * and rejecting hunk 2, Qwen writes exactly the composed text; rejecting all, it writes nothing, ends
 * the turn, and tells the model only its own words with the next prompt (DiffTray's reason has no way
 * through openDiff). Answered in Qwen's terminal instead, Qwen closes the diff (closeDiff) and writes
 * its own proposal; DiffTray ends the review as closed by the client. Skipped, saying why, where tmux
 * or the pinned package is missing.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import type { HeadlessApp } from '../../test/support/headless-app';
import {
  startOpenAiStandIn,
  type OpenAiStandIn,
  type ScriptedTurn,
} from '../../test/support/openai-stand-in';
import { findQwenCode, startQwenSession, type QwenSession } from '../../test/support/qwen-code';
import { until } from '../../test/support/wait';
import { appPageSession } from '../support/app-page-session';
import { acceptFirstRejectSecond, rejectAll, TWO_HUNKS, waitForReviewOf } from './support/review-in-browser';
import { messageOf } from '../../shared/error-message';

const qwen = findQwenCode();
if (qwen.skipReason) console.warn(`Skipping the real Qwen Code tests: ${qwen.skipReason}`);

/** Each step may take a while on a busy machine: the CLI starts, connects, and talks to the model. */
const STEP_MS = 60_000;
const PROMPT = 'Finalize both drafts in notes.txt';
/** Qwen's own question in its terminal while an edit waits for approval. */
const QWEN_ASKS = 'Apply this change?';

describe.skipIf(qwen.skipReason !== undefined)(
  'the real Qwen Code CLI in IDE mode, decided in DiffTray',
  () => {
    const session = appPageSession();
    let running: QwenSession | undefined;
    // Qwen is ended before the app removes its folders (after-hooks run last-registered first): on its
    // way out it still writes under its HOME (`.qwen/usage_record.jsonl`).
    afterEach(async () => {
      await running?.stop();
      running = undefined;
    });

    /**
     * The app and a page on it, the stand-in, the file to edit, and Qwen in its terminal, connected to
     * DiffTray and ready for a prompt; every part ended after the test.
     */
    const startConnected = async () => {
      const { app, page } = await session.start();
      const file = path.join(app.workspace, 'notes.txt');
      writeFileSync(file, TWO_HUNKS.base);
      const standIn = await startOpenAiStandIn(script(file));
      session.afterTest(() => standIn.close());
      const cli = startQwenSession({
        cli: qwen.path!,
        workspace: app.workspace,
        home: app.home,
        tmp: app.tmpDir,
        baseUrl: standIn.baseUrl,
        idePort: await lockFilePort(app),
      });
      running = cli;
      const waitFor = waiter(cli, standIn);
      const client = await waitFor(
        () => app.runtime.core.clients.list().find((c) => c.protocol === 'qwen-ide' && c.connected),
        'Qwen Code to connect to DiffTray',
      );
      // Its input box is drawn once its start-up is done; typed earlier, a prompt is lost.
      await waitFor(
        () => (cli.screen().includes('Type your message') ? true : undefined),
        "Qwen's input box",
      );
      return { app, page, file, standIn, cli, client, waitFor };
    };

    /** Types the prompt, waits until Qwen shows it in its input box, then sends it. */
    const sendPrompt = async (cli: QwenSession, waitFor: Waiter, prompt: string) => {
      cli.type(prompt);
      await waitFor(() => (cli.screen().includes(prompt) ? true : undefined), `the prompt typed into Qwen`);
      cli.press('Enter');
    };

    /**
     * Sends the prompt; resolves with the review once the edit is on DiffTray's page and Qwen asks in its
     * terminal as well (its question and DiffTray's diff wait together).
     */
    const proposeEdit = async ({ app, page, cli, standIn, waitFor }: Connected) => {
      await sendPrompt(cli, waitFor, PROMPT);
      await reviewOnScreen(page, cli, standIn);
      await waitFor(() => (cli.screen().includes(QWEN_ASKS) ? true : undefined), `Qwen's "${QWEN_ASKS}"`);
      return app.runtime.core.queue.summaries().find((r) => r.state === 'pending')!;
    };

    /** The edit's result as the model received it: sent once Qwen has written the file (or not). */
    const editReported = ({ standIn, waitFor }: Connected, what: string) =>
      waitFor(() => standIn.toolResults().find((r) => r.tool === 'edit'), what);

    it(
      'hunk 1 accepted and hunk 2 rejected in DiffTray: Qwen writes exactly the composed text',
      async () => {
        const connected = await startConnected();
        const { app, page, file, standIn, cli, client, waitFor } = connected;
        // Qwen reports its MCP client version as "1.0.0" whatever its own version: DiffTray shows none.
        expect(client).toMatchObject({ name: 'Qwen Code' });
        expect(client.version).toBeUndefined();
        await page.getByRole('tab', { name: 'Connections' }).click();
        const connections = page.getByTestId('connections');
        await onPage(
          connections.getByRole('heading', { name: 'Qwen Code', exact: true }),
          cli,
          'Qwen Code in Connections',
        );
        await connections.getByText('Qwen Code IDE (MCP over HTTP)').waitFor();
        await page.getByRole('tab', { name: 'Queue' }).click();
        // What the person sees on Qwen's side.
        await sendPrompt(cli, waitFor, '/ide status');
        await waitFor(
          () => (cli.screen().includes('✓ Connected to DiffTray') ? true : undefined),
          "Qwen's `/ide status` to say it is connected to DiffTray",
        );

        const review = await proposeEdit(connected);
        expect(review.client).toMatchObject({ name: 'Qwen Code', protocol: 'qwen-ide' });
        expect(review.files.map((f) => f.path)).toEqual([file]);
        // Nothing is written while the person decides.
        expectFileBytes(file, TWO_HUNKS.base);

        await acceptFirstRejectSecond(page);
        // DiffTray's answer settles the terminal's question too: Qwen writes the file, and the model hears
        // the edit went through (with a snippet of the file as written) and ends its turn.
        const result = await editReported(
          connected,
          'Qwen to write the file and report the edit to the model',
        );
        expectFileBytes(file, TWO_HUNKS.composed);
        expect(result.text).toMatch(new RegExp(`^The file: ${escapeRegExp(file)} has been updated\\.`));
        expect(result.text).toContain('first FINAL');
        await waitFor(
          () => (standIn.turnsServed() === 3 ? true : undefined),
          'the model to get its last turn',
        );
        await waitFor(
          () => (cli.screen().includes('Done.') ? true : undefined),
          "the model's last words on screen",
        );
        expect(cli.screen()).not.toContain(QWEN_ASKS);
        expect(app.runtime.core.queue.item(review.id)).toMatchObject({ state: 'accepted' });
      },
      5 * STEP_MS,
    );

    it(
      'rejected in DiffTray: the file stays as it was, Qwen ends the turn and tells the model on the next prompt',
      async () => {
        const connected = await startConnected();
        const { app, page, file, standIn, cli, waitFor } = connected;
        const review = await proposeEdit(connected);

        await rejectAll(page, 'keep the drafts');
        // Its question goes away and its input box comes back, without asking the model again.
        await waitFor(
          () =>
            !cli.screen().includes(QWEN_ASKS) && cli.screen().includes('Type your message')
              ? true
              : undefined,
          'Qwen to drop its question and take prompts again',
        );
        expect(standIn.turnsServed()).toBe(2);
        expectFileBytes(file, TWO_HUNKS.base);
        expect(app.runtime.core.queue.item(review.id)).toMatchObject({ state: 'rejected' });

        await sendPrompt(cli, waitFor, 'What happened?');
        const result = await editReported(
          connected,
          'the edit result to reach the model with the next prompt',
        );
        // Qwen's own words: openDiff has no way to carry DiffTray's reason.
        expect(result.text).toBe('[Operation Cancelled] Reason: User did not allow tool call');
        expect(result.text).not.toContain('keep the drafts');
        await waitFor(
          () => (standIn.turnsServed() === 3 ? true : undefined),
          'the model to answer the next prompt',
        );
        expectFileBytes(file, TWO_HUNKS.base);
      },
      5 * STEP_MS,
    );

    it(
      "answered in Qwen's terminal instead: Qwen writes its own proposal and DiffTray's review ends as closed by the client",
      async () => {
        const connected = await startConnected();
        const { app, page, file, standIn, cli, waitFor } = connected;
        const review = await proposeEdit(connected);

        // "1. Yes, allow once" is preselected. Qwen closes the diff (closeDiff) and writes what it proposed.
        cli.press('Enter');
        const result = await editReported(
          connected,
          'Qwen to write the file and report the edit to the model',
        );
        expectFileBytes(file, TWO_HUNKS.proposed);
        expect(result.text).toContain('last FINAL');
        await waitFor(
          () => (app.runtime.core.queue.item(review.id)?.state === 'cancelled' ? true : undefined),
          "DiffTray's review to end",
        );
        // The person sees that the review went away without their decision.
        await page
          .getByTestId('ended-banner')
          .getByText('Cancelled: closed by the client — your decisions were not sent to Qwen Code.')
          .waitFor();
        await waitFor(
          () => (standIn.turnsServed() === 3 ? true : undefined),
          'the model to get its last turn',
        );
      },
      5 * STEP_MS,
    );
  },
);

/** The model reads the file, edits both places in one edit (Qwen's `edit`: file_path, old_string, new_string), then says it is done. */
function script(file: string): ScriptedTurn[] {
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

/** The bridge port DiffTray's Qwen lock file (`<home>/.qwen/ide/<port>.lock`) names. */
async function lockFilePort(app: HeadlessApp): Promise<number> {
  const name = await until(
    () => {
      try {
        return readdirSync(app.qwenLockDir).find((entry) => /^\d+\.lock$/.test(entry));
      } catch {
        return undefined;
      }
    },
    `DiffTray's Qwen lock file in ${app.qwenLockDir}`,
    STEP_MS,
  );
  const lock = JSON.parse(readFileSync(path.join(app.qwenLockDir, name), 'utf8')) as { port: number };
  return lock.port;
}

type Waiter = <T>(probe: () => T | undefined, what: string) => Promise<T>;

interface Connected {
  app: HeadlessApp;
  page: Page;
  cli: QwenSession;
  standIn: OpenAiStandIn;
  waitFor: Waiter;
}

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

/** The review of notes.txt in DiffTray's window, or a failure showing Qwen's screen. */
async function reviewOnScreen(page: Page, cli: QwenSession, standIn: OpenAiStandIn): Promise<void> {
  try {
    await waitForReviewOf(page, 'notes.txt', STEP_MS);
  } catch (error) {
    throw new Error(`${messageOf(error)}${cliState(cli, standIn)}`, { cause: error });
  }
}

/** Waits for `locator` on DiffTray's page, failing with Qwen's screen. */
async function onPage(locator: ReturnType<Page['locator']>, cli: QwenSession, what: string): Promise<void> {
  try {
    await locator.waitFor({ timeout: STEP_MS });
  } catch (error) {
    throw new Error(`${what} did not appear on DiffTray's page\n--- Qwen's screen ---\n${cli.screen()}`, {
      cause: error,
    });
  }
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
