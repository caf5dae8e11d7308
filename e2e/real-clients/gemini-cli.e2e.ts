/**
 * The real Gemini CLI (pinned 0.61.0) in IDE mode against DiffTray: started interactively in tmux in the
 * app's workspace, offline (its model a loopback stand-in, test/support/gemini-stand-in.ts), it finds
 * DiffTray's discovery file in `<TMPDIR>/gemini/ide/` by itself and connects. When its model edits a
 * file, the CLI asks in its terminal ("Apply this change?") and opens the same edit in DiffTray
 * (`openDiff`); whichever answers first settles it. Decided in DiffTray's window, the CLI writes exactly
 * the text DiffTray composed and tells its model that the confirmation step changed the edit; rejected,
 * it writes nothing and cancels the turn. Answered in the terminal instead, the CLI takes the proposal
 * from DiffTray (`closeDiff`: the proposal as edited there; per-hunk decisions do not travel) and the
 * review ends in DiffTray's window as cancelled.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import type { HeadlessApp } from '../../test/support/headless-app';
import {
  GEMINI_CLI_VERSION,
  findGeminiCli,
  startGeminiSession,
  type GeminiSession,
} from '../../test/support/gemini-cli';
import {
  startGeminiStandIn,
  type GeminiStandIn,
  type ScriptedTurn,
} from '../../test/support/gemini-stand-in';
import { until } from '../../test/support/wait';
import { appPageSession } from '../support/app-page-session';
import { acceptFirstRejectSecond, rejectAll, TWO_HUNKS, waitForReviewOf } from './support/review-in-browser';
import { messageOf } from '../../shared/error-message';

const gemini = findGeminiCli();
if (gemini.skipReason) console.warn(`Skipping the real Gemini CLI tests: ${gemini.skipReason}`);

/** Each step may take a while on a busy machine: the CLI starts, connects, and talks to the model. */
const STEP_MS = 60_000;
const FILE_NAME = 'notes.md';
const PROMPT = `Finalise ${FILE_NAME}`;

describe.skipIf(gemini.skipReason !== undefined)(
  'the real Gemini CLI in IDE mode, decided in DiffTray',
  () => {
    const session = appPageSession();
    let app: HeadlessApp;
    let page: Page;
    let standIn: GeminiStandIn;
    let cli: GeminiSession | undefined;
    let file: string;

    /** The model reads the file, replaces the lines between the two changes in one edit, then is done. */
    const script = (): ScriptedTurn[] => [
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
      { text: 'Done.' },
    ];

    // Registered after the session's hooks, so it runs before them (vitest stacks after-hooks): the CLI
    // stops before the app's temp folders (its HOME and TMPDIR) are removed.
    afterEach(async () => {
      await cli?.stop();
      cli = undefined;
      await standIn?.close();
    });

    /** Waits for `probe`, failing with what the terminal shows and how far the model got. */
    const waitFor = async <T>(probe: () => T | undefined, what: string): Promise<T> => {
      try {
        return await until(probe, what, STEP_MS);
      } catch (error) {
        throw new Error(`${messageOf(error)} ${situation()}`, { cause: error });
      }
    };
    const situation = () =>
      `(model turns served: ${standIn.turnsServed()})\n--- screen ---\n${cli?.screen() ?? '(not started)'}`;
    const onScreen = (text: string) => (cli!.screen().includes(text) ? true : undefined);
    const fileText = () => readFileSync(file, 'utf8');

    /** Starts the app, the stand-in and the CLI; waits until both DiffTray and the CLI say they are connected. */
    const startConnected = async () => {
      ({ app, page } = await session.start());
      file = path.join(app.workspace, FILE_NAME);
      writeFileSync(file, TWO_HUNKS.base);
      standIn = await startGeminiStandIn(script());
      cli = startGeminiSession({
        entry: gemini.path!,
        workspace: app.workspace,
        home: app.home,
        tmp: app.tmpDir,
        baseUrl: standIn.baseUrl,
      });
      const client = await waitFor(
        // Its version comes with MCP's initialize, a moment after the connection itself.
        () =>
          app.runtime.core
            .snapshot()
            .clients.find((c) => c.protocol === 'gemini-ide' && c.connected && c.version !== undefined),
        "DiffTray's Connections to list Gemini CLI with its version",
      ).catch(async (error: Error) => {
        // The CLI shows nothing of a failed IDE connection unless asked: ask, so the message says why.
        await cli!.submitPrompt('/ide status').catch(() => undefined);
        await until(() => (/[🟢🟡🔴]/u.test(cli!.screen()) ? true : undefined), '/ide status', 10_000).catch(
          () => undefined,
        );
        throw new Error(`${error.message}\n--- after /ide status ---\n${cli!.screen()}`, { cause: error });
      });
      expect(client).toMatchObject({ name: 'Gemini CLI', version: GEMINI_CLI_VERSION });
      await cli.submitPrompt('/ide status');
      await waitFor(() => onScreen('Connected to DiffTray'), 'the CLI to say it is connected to DiffTray');
    };

    /** Sends the prompt; waits until the edit is up for review in DiffTray's window and asked in the terminal. */
    const proposeEdit = async () => {
      await cli!.submitPrompt(PROMPT);
      try {
        await waitForReviewOf(page, FILE_NAME, STEP_MS);
      } catch (error) {
        throw new Error(`${messageOf(error)} ${situation()}`, { cause: error });
      }
      await waitFor(() => onScreen('Apply this change?'), 'the CLI to ask about the edit in its terminal');
      // Nothing is written while the person decides.
      expect(fileText()).toBe(TWO_HUNKS.base);
    };

    /**
     * Waits until the CLI has written the file and shows its edit as done. It writes in place (truncate,
     * then write), so the file is read only once the edit shows as done (✓).
     */
    const editWritten = async () => {
      await waitFor(
        () => (fileText() !== TWO_HUNKS.base ? true : undefined),
        `the CLI to write ${FILE_NAME}`,
      );
      await waitFor(
        () => onScreen(`✓  Edit  ${FILE_NAME} → Accepted`),
        'the CLI to show the edit as accepted',
      );
    };

    it(
      'hunk 1 accepted and hunk 2 rejected in DiffTray: the CLI writes exactly the composed text',
      async () => {
        await startConnected();
        await proposeEdit();

        await acceptFirstRejectSecond(page);
        // DiffTray's answer settles the terminal's question too.
        await editWritten();
        expect(fileText()).toBe(TWO_HUNKS.composed);
        expect(cli!.screen()).not.toContain('Apply this change?');

        await waitFor(
          () => (standIn.turnsServed() === 3 ? true : undefined),
          'the model to get its last turn',
        );
        const result = standIn.functionResponses().find((response) => response.name === 'replace');
        // The CLI's own words: the edit succeeded, changed by the confirmation step to the composed text.
        expect(result?.response.output).toEqual(
          expect.stringContaining(`Successfully modified file: ${file}`),
        );
        expect(result?.response.output).toEqual(
          expect.stringContaining(`modified the \`new_string\` content to be: ${TWO_HUNKS.composed}`),
        );
        expect(fileText()).toBe(TWO_HUNKS.composed);
      },
      5 * STEP_MS,
    );

    it(
      'rejected in DiffTray: the file stays as it was, the CLI cancels the turn and its model hears nothing of the edit',
      async () => {
        await startConnected();
        await proposeEdit();

        await rejectAll(page, 'keep the drafts');
        await waitFor(
          () => onScreen(`Edit  ${FILE_NAME} → Rejected`),
          'the CLI to show the edit as rejected',
        );
        await waitFor(() => onScreen('Request cancelled.'), 'the CLI to cancel the turn');
        expect(cli!.screen()).not.toContain('Apply this change?');
        expect(fileText()).toBe(TWO_HUNKS.base);
        // A rejection is the person's "No": the model is not asked again in this turn.
        expect(standIn.turnsServed()).toBe(2);

        // With the next prompt the model gets the history; the cancelled edit is not in it, nor its result
        // (and DiffTray's reason has no way there: `ide/diffRejected` carries only the path).
        await cli!.submitPrompt('Tell me what you did');
        await waitFor(
          () => (standIn.turnsServed() === 3 ? true : undefined),
          'the next prompt to reach the model',
        );
        const history = standIn.requests.filter((request) => request.main).at(-1)?.body?.contents ?? [];
        const parts = history.flatMap((content) => content.parts ?? []);
        expect(parts.some((part) => part.functionCall?.name === 'replace')).toBe(false);
        expect(parts.some((part) => part.functionResponse?.name === 'replace')).toBe(false);
        expect(history.at(-1)).toEqual({ role: 'user', parts: [{ text: 'Tell me what you did' }] });
        expect(fileText()).toBe(TWO_HUNKS.base);
      },
      5 * STEP_MS,
    );

    it(
      'answered in the terminal instead: the CLI takes the proposal from DiffTray, writes it, and the review ends',
      async () => {
        await startConnected();
        await proposeEdit();

        // "1. Allow once" is the terminal's highlighted answer.
        cli!.press('Enter');
        await editWritten();
        expect(fileText()).toBe(TWO_HUNKS.proposed);
        // DiffTray's window says the review has ended and that its decisions (none here) went nowhere.
        await page
          .getByTestId('ended-banner')
          .getByText('Cancelled: closed by the client — your decisions were not sent to Gemini CLI.')
          .waitFor({ timeout: STEP_MS });
        expect(app.runtime.core.queue.summaries().map((review) => review.state)).toEqual(['cancelled']);
      },
      5 * STEP_MS,
    );
  },
);
