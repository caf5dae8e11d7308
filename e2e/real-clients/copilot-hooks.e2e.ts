/**
 * The real GitHub Copilot CLI (1.0.102, `copilot -p --allow-all-tools`) reviewed through DiffTray's
 * hooks, decided in Chromium. The hooks are installed as a person installs them: `difftray setup
 * copilot` (the built CLI) writes `$COPILOT_HOME/hooks/difftray.json`; preToolUse (`difftray hook copilot
 * preToolUse`) puts each `edit` and shell command up for review and answers with the whole rewritten
 * args, an allow with the note, or a deny. The model is the project's loopback stand-in (a `view`, then
 * an `edit` or a `bash` call, then text). Checked: the bytes Copilot wrote and what its model received
 * next. Skipped, saying why, where the CLI (or tmux, which its other tests need) or Chromium is missing.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_PATH } from '../../test/support/chromium';
import { COPILOT_CLI_VERSION, findCopilotBinary } from '../../test/support/copilot-cli';
import { runCopilotPrint, type CopilotPrintResult } from '../../test/support/copilot-print';
import type { HeadlessApp } from '../../test/support/headless-app';
import {
  startOpenAiStandIn,
  type ChatMessage,
  type OpenAiStandIn,
  type ScriptedTurn,
} from '../../test/support/openai-stand-in';
import { makeTempDir } from '../../test/support/temp';
import { appPageSession } from '../support/app-page-session';
import { acceptFirstRejectSecond, rejectAll, TWO_HUNKS, waitForReviewOf } from './support/review-in-browser';

const copilot = findCopilotBinary();
const skipReason =
  copilot.skipReason ?? (existsSync(CHROMIUM_PATH) ? undefined : `no Chromium at ${CHROMIUM_PATH}`);
if (skipReason) console.warn(`Skipping the real Copilot CLI hooks tests: ${skipReason}`);

const BIN = path.resolve('bin', 'difftray.cjs');
/** Each step may take a while on a busy machine: the CLI starts (unpacking itself the first time), runs its hooks, talks to the model. */
const STEP_MS = 90_000;
const FILE_NAME = 'notes.md';
const NOTE = 'Keep the last line a draft: it is still under discussion.';

describe.skipIf(skipReason !== undefined)(
  `the real Copilot CLI ${COPILOT_CLI_VERSION} through DiffTray's hooks, decided in DiffTray`,
  () => {
    const session = appPageSession();
    let app: HeadlessApp;
    let page: Page;
    let standIn: OpenAiStandIn;
    let file: string;
    let cache: ReturnType<typeof makeTempDir>;

    beforeAll(() => {
      cache = makeTempDir('copilot-hooks-cache');
    });
    afterAll(() => cache?.cleanup());

    const difftrayHome = () => path.join(app.home, '.difftray');
    const copilotHome = () => path.join(app.home, '.copilot');

    /** The app, its page, the file to edit, and DiffTray's hooks set up as the person does it. */
    async function start(): Promise<void> {
      ({ app, page } = await session.start());
      file = path.join(app.workspace, FILE_NAME);
      writeFileSync(file, TWO_HUNKS.base);
      const setup = spawnSync(process.execPath, [BIN, 'setup', 'copilot'], {
        env: { ...process.env, HOME: app.home, COPILOT_HOME: copilotHome(), DIFFTRAY_HOME: difftrayHome() },
        encoding: 'utf8',
      });
      expect(setup.status, `difftray setup copilot:\n${setup.stdout}\n${setup.stderr}`).toBe(0);
      const hooks = readFileSync(path.join(copilotHome(), 'hooks', 'difftray.json'), 'utf8');
      expect(hooks).toContain('hook copilot preToolUse');
    }

    /** Runs `copilot -p` against a stand-in playing `script`; resolves when Copilot exits. */
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
        prompt: `Finalise ${FILE_NAME}`,
        env: { DIFFTRAY_HOME: difftrayHome() },
        timeoutMs: 3 * STEP_MS,
        progress: () => `the stand-in served ${served.turnsServed()} of ${script.length} turns`,
      });
      // Awaited again after the app has closed (which ends a review still open): no CLI outlives its test.
      session.afterTest(() => run.catch(() => undefined));
      return run;
    }

    /** Waits for `locator` in the page, failing at once (with Copilot's output) if Copilot exits first. */
    async function shown(locator: Locator, run: Promise<CopilotPrintResult>, what: string): Promise<void> {
      const exited = run.then((result) => {
        throw new Error(
          `copilot -p exited (${result.exitCode}) before ${what} appeared in DiffTray's window ` +
            `(model turns served: ${standIn.turnsServed()}):\n${result.stdout}\n${result.stderr}`,
        );
      });
      try {
        await Promise.race([locator.waitFor({ timeout: STEP_MS }), exited]);
      } catch (error) {
        if (error instanceof Error && error.name === 'TimeoutError') {
          throw new Error(
            `${what} did not appear in DiffTray's window within ${STEP_MS / 1000} s ` +
              `(model turns served: ${standIn.turnsServed()})`,
            { cause: error },
          );
        }
        throw error;
      }
    }

    /** Copilot ended well, or the failure shows its output. */
    async function finished(run: Promise<CopilotPrintResult>): Promise<CopilotPrintResult> {
      const result = await run;
      expect(result.exitCode, `copilot -p failed:\n${result.stdout}\n${result.stderr}`).toBe(0);
      return result;
    }

    /** The model reads the file, replaces the lines between the two changes in one edit, then is done. */
    const editScript = (): ScriptedTurn[] => [
      { tool: 'view', input: { path: file } },
      {
        tool: 'edit',
        input: {
          path: file,
          old_str: 'first draft\na\nb\nc\nd\ne\nf\nlast draft',
          new_str: 'first FINAL\na\nb\nc\nd\ne\nf\nlast FINAL',
        },
      },
      { text: 'Done.' },
    ];

    /** What the model received for its call of `tool`. */
    function resultOf(tool: string): string {
      const found = standIn.toolResults().find((result) => result.tool === tool);
      if (!found) throw new Error(`The model never received a result of ${tool}`);
      return found.text;
    }

    /** The messages of the model's request after its call of `tool`, from that call's result on. */
    function messagesAfter(tool: string): ChatMessage[] {
      const callId = standIn.toolResults().find((result) => result.tool === tool)?.toolCallId;
      for (const request of standIn.requests.filter((r) => r.main)) {
        const messages = request.body?.messages ?? [];
        const at = messages.findIndex(
          (message) => message.role === 'tool' && message.tool_call_id === callId,
        );
        if (at >= 0) return messages.slice(at);
      }
      throw new Error(`No request to the model carried the result of ${tool}`);
    }
    const textOf = (message: ChatMessage) =>
      typeof message.content === 'string'
        ? message.content
        : (message.content ?? []).map((part) => part.text ?? '').join('');
    const userTextAfter = (tool: string) =>
      messagesAfter(tool)
        .filter((message) => message.role === 'user')
        .map(textOf)
        .join('\n');

    /** The args of the model's `edit` call as Copilot sends its history back to the model. */
    function editArgsInHistory(): unknown {
      const last = standIn.requests.filter((r) => r.main).at(-1);
      const call = last?.body?.messages
        ?.flatMap((message) => message.tool_calls ?? [])
        .find((toolCall) => toolCall.function.name === 'edit');
      if (!call) throw new Error("The model's history holds no edit call");
      return JSON.parse(call.function.arguments);
    }

    const button = (name: string) => page.getByRole('button', { name, exact: true });
    const noteBox = () => page.getByRole('textbox', { name: 'Note to the agent' });
    const noReviewsWaiting = () => page.getByRole('heading', { name: 'No reviews waiting' }).waitFor();

    it(
      'hunk 1 accepted, hunk 2 rejected, a note: Copilot writes exactly hunk 1 and its model reads the note',
      async () => {
        await start();
        const run = runCopilot(editScript());

        await shown(button('Reject hunk 2'), run, 'the review of the edit');
        await waitForReviewOf(page, FILE_NAME, STEP_MS);
        // Nothing is written while the person decides.
        expect(readFileSync(file, 'utf8')).toBe(TWO_HUNKS.base);
        await acceptFirstRejectSecond(page, { note: NOTE });

        const result = await finished(run);
        expect(readFileSync(file, 'utf8'), result.stdout).toBe(TWO_HUNKS.composed);
        expect(standIn.turnsServed()).toBe(3);
        expect(resultOf('edit')).toBe(`File ${file} updated with changes.`);
        // additionalContext comes to the model as a user message after the tool's result.
        const context = userTextAfter('edit');
        expect(context).toMatch(/^Additional context from preToolUse hook:\n/);
        expect(context).toContain('Rejected: line 9.');
        expect(context).toContain(`Note from the reviewer: ${NOTE}`);
        // The model's history holds the rewritten call, not its own two-hunk edit.
        expect(editArgsInHistory()).toEqual({
          path: file,
          old_str: 'first draft\n',
          new_str: 'first FINAL\n',
        });
      },
      5 * STEP_MS,
    );

    it(
      'a CRLF file edited with LF strings (as a model sends them), hunk 2 rejected: Copilot writes the composed CRLF text',
      async () => {
        await start();
        const crlf = (text: string) => text.replaceAll('\n', '\r\n');
        writeFileSync(file, crlf(TWO_HUNKS.base));
        // Copilot finds an LF old_str in a CRLF file and writes new_str's lines CRLF: the hook replays that.
        const run = runCopilot(editScript());

        await shown(button('Reject hunk 2'), run, 'the review of the edit');
        await waitForReviewOf(page, FILE_NAME, STEP_MS);
        await acceptFirstRejectSecond(page, { note: NOTE });

        const result = await finished(run);
        expect(readFileSync(file, 'utf8'), result.stdout).toBe(crlf(TWO_HUNKS.composed));
        expect(resultOf('edit')).toBe(`File ${file} updated with changes.`);
        expect(userTextAfter('edit')).toContain(`Note from the reviewer: ${NOTE}`);
      },
      5 * STEP_MS,
    );

    it(
      'rejected with a reason: the file is untouched and the model gets the reason',
      async () => {
        await start();
        const reason = 'Wrong file: the drafts live in plan.md.';
        const run = runCopilot(editScript());

        await shown(button('Reject hunk 2'), run, 'the review of the edit');
        await rejectAll(page, reason);

        await finished(run);
        expect(readFileSync(file, 'utf8')).toBe(TWO_HUNKS.base);
        expect(standIn.turnsServed()).toBe(3);
        expect(resultOf('edit')).toBe(`Denied by preToolUse hook: ${reason}`);
      },
      5 * STEP_MS,
    );

    it(
      'a shell command denied with a note in its approval card never runs, and the model reads the note',
      async () => {
        await start();
        const marker = path.join(app.workspace, 'ran.txt');
        const run = runCopilot([
          { tool: 'bash', input: { command: `touch ${marker}`, description: 'Mark the run' } },
          { text: 'Done.' },
        ]);

        const card = page.getByTestId('approval-card');
        await shown(card.getByText(`touch ${marker}`), run, 'the approval card for the command');
        await card.getByText('Mark the run').waitFor();
        await noteBox().fill('No side effects in this task.');
        await button('Deny').click();
        await noReviewsWaiting();

        await finished(run);
        expect(existsSync(marker)).toBe(false);
        expect(standIn.turnsServed()).toBe(2);
        expect(resultOf('bash')).toBe('Denied by preToolUse hook: No side effects in this task.');
      },
      5 * STEP_MS,
    );
  },
);
