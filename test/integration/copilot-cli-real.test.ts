/**
 * The real GitHub Copilot CLI against DiffTray: started offline in the workspace (its model a loopback
 * stand-in, test/support/openai-stand-in.ts), it finds DiffTray's lock file by itself, connects over
 * the Unix socket, and when its model edits a file, the edit waits in DiffTray as a review (open_diff).
 * Accepting lets the CLI write its proposal; rejecting leaves the file alone and ends the CLI's turn
 * (the model hears "The user rejected this tool call." with the next prompt; DiffTray's reason does not
 * reach it). Lines sent to the agent from DiffTray (`selection_changed`) go with the person's next
 * prompt as the CLI's `<ide_selection>` block. Skipped, saying why, where the CLI's platform package (or
 * tmux) is missing; with the package installed elsewhere, DIFFTRAY_TEST_COPILOT_BIN names its `copilot`
 * binary.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ReviewSummary } from '../../shared/app-api';
import {
  COPILOT_CLI_VERSION,
  findCopilotBinary,
  startCopilotSession,
  type CopilotSession,
} from '../support/copilot-cli';
import { startOpenAiStandIn, type OpenAiStandIn, type ScriptedTurn } from '../support/openai-stand-in';
import { makeTempDir } from '../support/temp';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime';
import { until } from '../support/wait';
import { messageOf } from '../../shared/error-message';

const copilot = findCopilotBinary();
if (copilot.skipReason) console.warn(`Skipping the real Copilot CLI tests: ${copilot.skipReason}`);

const BASE = 'one\ntwo\nthree\n';
const PROPOSED = 'ONE\ntwo\nthree\n';
/**
 * One step (the CLI starting and unpacking itself, a model turn, a redraw) on two loaded cores: a whole
 * test took 12 s alone and 70 s beside other builds. Generous, and still bounded.
 */
const STEP_MS = 90_000;
/** A whole test: its steps share it, so the wait that runs out (not vitest's timer) says what did not appear. */
const TEST_MS = 240_000;
/** Screen probes start tmux: often enough to see a frame, seldom enough not to load the machine. */
const POLL_MS = 100;

describe.skipIf(copilot.skipReason !== undefined)(
  'the real Copilot CLI connected to DiffTray over /ide',
  () => {
    let t: TestRuntime;
    let standIn: OpenAiStandIn;
    let cli: CopilotSession | undefined;
    let file: string;
    let cache: ReturnType<typeof makeTempDir>;
    let testDeadline = 0;

    /** The model reads the file, then edits it, then says it is done. */
    const script = (): ScriptedTurn[] => [
      { tool: 'view', input: { path: file } },
      { tool: 'edit', input: { path: file, old_str: 'one', new_str: 'ONE' } },
      { text: 'Done.' },
    ];

    beforeAll(() => {
      cache = makeTempDir('copilot-cache');
    });

    afterAll(() => cache?.cleanup());

    beforeEach(async () => {
      // On loaded cores the CLI opens its event stream seconds after it connects: past the usual grace,
      // DiffTray would end its session, and the CLI's reconnect cancels its diff and drops a selection.
      t = await startTestRuntime({ mcpStreamGraceMs: 60_000 });
      file = path.join(t.workspace, 'notes.txt');
      writeFileSync(file, BASE);
      standIn = await startOpenAiStandIn(script());
      testDeadline = Date.now() + TEST_MS;
    });

    afterEach(async () => {
      await cli?.stop();
      cli = undefined;
      await standIn.close();
      await t.close();
    });

    /** Waits for `probe`, failing with what did not appear, what the terminal shows and the CLI's log. */
    const waitFor = async <T>(probe: () => T | undefined, what: string): Promise<T> => {
      const limit = Math.max(0, Math.min(STEP_MS, testDeadline - Date.now()));
      try {
        return await until(probe, what, limit, POLL_MS);
      } catch (error) {
        const detail = cli ? `\n--- screen ---\n${cli.screen()}\n--- log ---\n${cli.logTail()}` : '';
        throw new Error(`${messageOf(error)} (model turns served: ${standIn.turnsServed()})${detail}`, {
          cause: error,
        });
      }
    };

    /**
     * Starts the CLI in the workspace and waits until DiffTray lists it as connected and the CLI has
     * done starting (its footer drawn: before, it still waits on the IDE and may connect again).
     */
    const startConnected = async () => {
      cli = startCopilotSession({
        binary: copilot.path!,
        workspace: t.workspace,
        home: t.home,
        tmp: t.tmpDir,
        cacheHome: cache.dir,
        baseUrl: standIn.baseUrl,
      });
      const client = await waitFor(
        () =>
          t.runtime.core.clients
            .list()
            .find((client) => client.protocol === 'copilot-cli' && client.connected),
        'Copilot CLI to connect to DiffTray',
      );
      await waitFor(
        () => (cli!.waitsForPrompt() ? true : undefined),
        'the CLI to finish starting and wait for a prompt (its footer\'s "? help")',
      );
      return client;
    };

    const pendingReview = () =>
      waitFor(
        () => t.runtime.core.queue.summaries().find((review: ReviewSummary) => review.state === 'pending'),
        'the edit to arrive in DiffTray',
      );

    const editResult = () =>
      waitFor(
        () => standIn.toolResults().find((result) => result.tool === 'edit'),
        'the edit result to reach the model',
      );

    it(
      'finds DiffTray by itself; its edit waits as a review, and once accepted the CLI writes it',
      async () => {
        await startConnected();

        cli!.submitPrompt('Change one to ONE in notes.txt');
        const review = await pendingReview();
        // The CLI names its session after the prompt (update_session_name) and its diff tab after the file.
        expect(review.client).toMatchObject({
          name: 'Copilot CLI · Change one to ONE in notes.txt',
          protocol: 'copilot-cli',
          version: COPILOT_CLI_VERSION,
        });
        expect(review).toMatchObject({
          title: 'notes.txt',
          description: expect.stringMatching(/notes\.txt/),
        });
        expect(review.files).toHaveLength(1);
        expect(review.files[0]!.path).toBe(file);
        expect(review.files[0]!.hunks).toHaveLength(1);
        // Nothing is written while the person decides.
        expect(readFileSync(file, 'utf8')).toBe(BASE);

        await t.runtime.handler('submit', { reviewId: review.id });
        await waitFor(
          () => (readFileSync(file, 'utf8') === PROPOSED ? true : undefined),
          'the CLI to write the edit',
        );
        expect((await editResult()).text).toBe(`File ${file} updated with changes.`);
        await waitFor(
          () => (standIn.turnsServed() === 3 ? true : undefined),
          'the model to get its last turn',
        );
        expect(t.runtime.core.queue.item(review.id)).toMatchObject({ state: 'accepted' });
      },
      TEST_MS + 20_000,
    );

    it(
      'rejected in DiffTray: the CLI writes nothing and ends the turn; the model learns of it on the next prompt',
      async () => {
        await startConnected();
        cli!.submitPrompt('Change one to ONE in notes.txt');
        const review = await pendingReview();
        await t.runtime.handler('reject', { reviewId: review.id, reason: 'keep it lower case' });
        // Copilot CLI takes a rejection as the person's "No": it cancels the turn without asking the model.
        await waitFor(
          () => (cli!.screen().includes('The user rejected this tool call') ? true : undefined),
          'the CLI to show the rejection',
        );
        expect(standIn.turnsServed()).toBe(2);
        expect(readFileSync(file, 'utf8')).toBe(BASE);
        expect(t.runtime.core.queue.item(review.id)).toMatchObject({ state: 'rejected' });

        cli!.submitPrompt('What happened?');
        const result = await editResult();
        // What the model is told is the CLI's own sentence: DiffTray's reason has no way through.
        expect(result.text).toBe('The user rejected this tool call.');
        await waitFor(
          () => (standIn.turnsServed() === 3 ? true : undefined),
          'the model to answer the next prompt',
        );
        expect(readFileSync(file, 'utf8')).toBe(BASE);
      },
      TEST_MS + 20_000,
    );

    it(
      'lines sent to the agent from DiffTray go with the next prompt to the model (selection_changed)',
      async () => {
        await startConnected();
        cli!.submitPrompt('Change one to ONE in notes.txt');
        const review = await pendingReview();
        await t.runtime.handler('sendSelection', {
          reviewId: review.id,
          fileIndex: 0,
          side: 'base',
          startLine: 1,
          endLine: 2,
        });
        // The CLI logs the selection as it stores it: the step that shows it has the lines.
        await waitFor(
          () => (cli!.holdsSelectionOf(file) ? true : undefined),
          'the CLI to store the selection DiffTray sent (its log: "IDE selection changed: <file>")',
        );
        await t.runtime.handler('submit', { reviewId: review.id });
        // A prompt typed while the turn still winds up is queued, and a queued prompt carries no selection.
        // The idle footer is drawn only between turns; a missing "Working" is not enough (a torn redraw).
        await waitFor(
          () => (standIn.turnsServed() === 3 && cli!.waitsForPrompt() ? true : undefined),
          'the CLI to end its turn and wait for a prompt (its footer\'s "? help" back)',
        );
        // Beside the prompt, the CLI shows the selection it will attach, its lines 1-based.
        await waitFor(
          () => (cli!.screen().includes('@notes.txt:2-3') ? true : undefined),
          'the CLI to show the selection beside its prompt (@notes.txt:2-3)',
        );
        // A reconnect to DiffTray since would have dropped it; the prompt would then go without it.
        expect(cli!.holdsSelectionOf(file), 'the CLI still holds the selection (its log)').toBe(true);

        cli!.submitPrompt('What are these lines?');
        const request = await waitFor(
          () => (standIn.turnsServed() === 4 ? standIn.requests.filter((r) => r.main)[3] : undefined),
          'the next prompt to reach the model',
        );
        const prompt = request.body?.messages?.filter((message) => message.role === 'user').pop();
        // The CLI's own wording, 1-based lines; the text is DiffTray's (the file's, before the edit).
        expect(prompt?.content).toContain(
          '<ide_selection>\nThe user has the following text selected in their IDE.',
        );
        expect(prompt?.content).toContain(
          'File: notes.txt (lines 2-3)\n```\ntwo\nthree\n```\n</ide_selection>',
        );
        expect(prompt?.content).toContain('What are these lines?');
      },
      TEST_MS + 20_000,
    );
  },
);
