/**
 * The real Gemini CLI (0.61.0, `gemini -p --approval-mode auto_edit`, IDE mode off) reviewed through
 * DiffTray's hooks, decided in Chromium: BeforeTool (`difftray hook gemini`) puts each `replace` and
 * shell command up for review and answers with the whole rewritten input or a deny; AfterTool hands the
 * model the note kept for that edit (Gemini drops BeforeTool's context). The model is the project's
 * loopback stand-in (a read_file, then a replace or a run_shell_command). Checked: the bytes Gemini wrote
 * and what its model received next. Skipped, saying why, where the CLI or Chromium is missing.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { CHROMIUM_PATH } from '../../test/support/chromium';
import { findGeminiEntry } from '../../test/support/gemini-cli';
import {
  installDiffTrayGeminiHooks,
  runGeminiPrint,
  type GeminiPrintResult,
} from '../../test/support/gemini-hooks';
import {
  startGeminiStandIn,
  type GeminiStandIn,
  type ReceivedFunctionResponse,
  type ScriptedTurn,
} from '../../test/support/gemini-stand-in';
import type { HeadlessApp } from '../../test/support/headless-app';
import { appPageSession } from '../support/app-page-session';
import { acceptFirstRejectSecond, rejectAll, TWO_HUNKS, waitForReviewOf } from './support/review-in-browser';

const gemini = findGeminiEntry();
const skipReason =
  gemini.skipReason ?? (existsSync(CHROMIUM_PATH) ? undefined : `no Chromium at ${CHROMIUM_PATH}`);
if (skipReason) console.warn(`Skipping the real Gemini CLI hooks tests: ${skipReason}`);

const BIN = path.resolve('bin', 'difftray.cjs');
/** Each step may take a while on a busy machine: the CLI starts, runs its hooks, and talks to the model. */
const STEP_MS = 60_000;
const FILE_NAME = 'notes.md';
const NOTE = 'Keep the last line a draft: it is still under discussion.';

describe.skipIf(skipReason !== undefined)(
  'the real Gemini CLI through its hooks, decided in DiffTray',
  () => {
    const session = appPageSession();
    let app: HeadlessApp;
    let page: Page;
    let standIn: GeminiStandIn | undefined;
    let file: string;

    afterEach(async () => {
      await standIn?.close();
      standIn = undefined;
    });

    /** The app, its page, the file to edit and the hooks installed in the app's HOME. */
    async function start(): Promise<void> {
      ({ app, page } = await session.start());
      file = path.join(app.workspace, FILE_NAME);
      writeFileSync(file, TWO_HUNKS.base);
      installDiffTrayGeminiHooks(app.home);
    }

    /** Runs `gemini -p` against a stand-in answering with `script`; resolves when Gemini exits. */
    async function runGemini(
      script: ScriptedTurn[],
      approvalMode: 'auto_edit' | 'yolo' = 'auto_edit',
      home = difftrayHome(),
    ): Promise<GeminiPrintResult> {
      const served = await startGeminiStandIn(script);
      standIn = served;
      const tmp = path.join(app.home, 'tmp');
      mkdirSync(tmp, { recursive: true });
      return runGeminiPrint({
        entry: gemini.path!,
        workspace: app.workspace,
        home: app.home,
        tmp,
        baseUrl: served.baseUrl,
        prompt: `Finalise ${FILE_NAME}`,
        approvalMode,
        env: { DIFFTRAY_HOME: home },
        timeoutMs: 4 * STEP_MS,
        progress: () => `the stand-in served ${served.turnsServed()} of ${script.length} turns`,
      });
    }

    const difftrayHome = () => path.join(app.home, '.difftray');

    /** Waits for `what` in the page, failing at once (with Gemini's output) if Gemini exits first. */
    async function shown(
      wait: Promise<unknown>,
      run: Promise<GeminiPrintResult>,
      what: string,
    ): Promise<void> {
      const exited = run.then((result) => {
        throw new Error(
          `gemini -p exited (${result.exitCode}) before ${what} appeared (model turns served: ${standIn?.turnsServed()}):\n${result.stdout}\n${result.stderr}`,
        );
      });
      await Promise.race([wait, exited]);
    }

    /** The model reads the file, replaces the lines between the two changes in one edit, then is done. */
    const editScript = (): ScriptedTurn[] => [
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

    /** What the model received for its call of `name`, in its next request. */
    function resultOf(name: string): ReceivedFunctionResponse {
      const found = standIn!.functionResponses().find((response) => response.name === name);
      if (!found) throw new Error(`The model never received a result of ${name}`);
      return found;
    }

    /** What Gemini answered, and that it had nothing to complain about. */
    function expectCleanExit(result: GeminiPrintResult): void {
      expect(result.exitCode, `${result.stdout}\n${result.stderr}`).toBe(0);
    }

    const noteBox = () => page.getByRole('textbox', { name: 'Note to the agent' });
    const heldNotes = () => {
      const folder = path.join(difftrayHome(), 'hook-notes');
      return existsSync(folder) ? readdirSync(folder) : [];
    };

    it(
      'hunk 1 accepted, hunk 2 rejected, a note: Gemini writes exactly hunk 1 and its model reads the note and what was rejected',
      async () => {
        await start();
        const run = runGemini(editScript());

        await shown(waitForReviewOf(page, FILE_NAME, STEP_MS), run, 'the review');
        // Nothing is written while the person decides.
        expect(readFileSync(file, 'utf8')).toBe(TWO_HUNKS.base);
        await acceptFirstRejectSecond(page, { note: NOTE });

        const result = await run;
        expectCleanExit(result);
        expect(readFileSync(file, 'utf8')).toBe(TWO_HUNKS.composed);
        expect(standIn!.turnsServed()).toBe(3);
        const output = String(resultOf('replace').response.output);
        expect(output).toContain(`Successfully modified file: ${file}`);
        // Gemini's own words for a rewritten call, then AfterTool's context: what was rejected, and the note.
        expect(output).toContain('were modified by a hook before execution.');
        expect(output).toMatch(/<hook_context>[^]*Rejected: line 9\.[^]*<\/hook_context>/);
        expect(output).toContain(`Note from the reviewer: ${NOTE}`);
        // The note was handed over once and is not kept any longer.
        expect(heldNotes()).toEqual([]);
      },
      5 * STEP_MS,
    );

    it(
      'a write_file of the whole text, hunk 2 rejected: Gemini writes the composed text',
      async () => {
        await start();
        const run = runGemini([
          { tool: 'read_file', input: { file_path: file } },
          { tool: 'write_file', input: { file_path: file, content: TWO_HUNKS.proposed } },
          { text: 'Done.' },
        ]);

        await shown(waitForReviewOf(page, FILE_NAME, STEP_MS), run, 'the review');
        await acceptFirstRejectSecond(page, { note: NOTE });

        const result = await run;
        expectCleanExit(result);
        expect(readFileSync(file, 'utf8')).toBe(TWO_HUNKS.composed);
        const output = String(resultOf('write_file').response.output);
        expect(output).toContain('were modified by a hook before execution.');
        expect(output).toMatch(/<hook_context>[^]*Rejected: line 9\.[^]*<\/hook_context>/);
        expect(output).toContain(`Note from the reviewer: ${NOTE}`);
      },
      5 * STEP_MS,
    );

    it(
      'rejected with a reason: the file is untouched and the model gets "Tool execution blocked: <reason>"',
      async () => {
        await start();
        const run = runGemini(editScript());

        await shown(waitForReviewOf(page, FILE_NAME, STEP_MS), run, 'the review');
        await rejectAll(page, 'Wrong file: the drafts live in plan.md.');

        const result = await run;
        expectCleanExit(result);
        expect(readFileSync(file, 'utf8')).toBe(TWO_HUNKS.base);
        expect(resultOf('replace').response).toEqual({
          error: 'Tool execution blocked: Wrong file: the drafts live in plan.md.',
        });
        expect(heldNotes()).toEqual([]);
      },
      5 * STEP_MS,
    );

    it(
      'a shell command denied with a note in its approval card never runs, and the model reads the note',
      async () => {
        await start();
        const marker = path.join(app.workspace, 'ran.txt');
        // In -p only yolo offers the shell tool; DiffTray's hook is then the one gate before it runs.
        const run = runGemini(
          [
            { tool: 'run_shell_command', input: { command: `touch ${marker}`, description: 'Mark the run' } },
            { text: 'Done.' },
          ],
          'yolo',
        );

        const card = page.getByTestId('approval-card');
        await shown(
          card.getByText(`touch ${marker}`).waitFor({ timeout: STEP_MS }),
          run,
          'the approval card',
        );
        await card.getByText('Mark the run').waitFor();
        await noteBox().fill('No side effects in this task.');
        await page.getByRole('button', { name: 'Deny', exact: true }).click();

        const result = await run;
        expectCleanExit(result);
        expect(existsSync(marker)).toBe(false);
        expect(resultOf('run_shell_command').response).toEqual({
          error: 'Tool execution blocked: No side effects in this task.',
        });
      },
      5 * STEP_MS,
    );

    it(
      'a shell command allowed with a note runs, and the model reads the note after its output',
      async () => {
        await start();
        const marker = path.join(app.workspace, 'ran.txt');
        const run = runGemini(
          [
            { tool: 'run_shell_command', input: { command: `touch ${marker}`, description: 'Mark the run' } },
            { text: 'Done.' },
          ],
          'yolo',
        );

        const card = page.getByTestId('approval-card');
        await shown(
          card.getByText(`touch ${marker}`).waitFor({ timeout: STEP_MS }),
          run,
          'the approval card',
        );
        await noteBox().fill('Fine once; ask before touching files next time.');
        await page.getByRole('button', { name: 'Allow', exact: true }).click();

        const result = await run;
        expectCleanExit(result);
        expect(existsSync(marker)).toBe(true);
        const output = String(resultOf('run_shell_command').response.output);
        expect(output).toContain(
          '<hook_context>Note from the reviewer: Fine once; ask before touching files next time.</hook_context>',
        );
        expect(heldNotes()).toEqual([]);
      },
      5 * STEP_MS,
    );

    it(
      'accepted whole without a note: Gemini writes the proposal and AfterTool adds nothing to what the model reads',
      async () => {
        await start();
        const run = runGemini(editScript());

        await shown(waitForReviewOf(page, FILE_NAME, STEP_MS), run, 'the review');
        await page.getByRole('button', { name: 'Accept hunk 1', exact: true }).click();
        await page.getByRole('button', { name: 'Accept hunk 2', exact: true }).click();
        await page.getByRole('button', { name: 'Submit', exact: true }).click();

        const result = await run;
        expectCleanExit(result);
        expect(readFileSync(file, 'utf8')).toBe(TWO_HUNKS.proposed);
        const output = String(resultOf('replace').response.output);
        expect(output).toContain(`Successfully modified file: ${file}`);
        expect(output).not.toContain('<hook_context>');
        expect(output).not.toContain('modified by a hook');
      },
      5 * STEP_MS,
    );

    it(
      'DiffTray not reachable: no decision, and Gemini goes on as it would without DiffTray',
      async () => {
        await start();
        const run = runGemini(editScript(), 'auto_edit', path.join(app.home, 'no-difftray-here'));

        const result = await run;
        expectCleanExit(result);
        // auto_edit writes without asking: what Gemini does with no hook at all.
        expect(readFileSync(file, 'utf8')).toBe(TWO_HUNKS.proposed);
        const output = String(resultOf('replace').response.output);
        expect(output).not.toContain('<hook_context>');
        expect(output).not.toContain('modified by a hook');
        // The hook's reason, on its stderr, is what Gemini shows the person (it reads a hook's stderr when
        // its stdout is empty, as plain text meaning "allow", which changes nothing of its own checks).
        expect(result.stderr).toContain(
          'Hook system message: difftray hook: no decision (DiffTray is not running',
        );
      },
      5 * STEP_MS,
    );

    it('AfterTool with no note kept prints nothing and exits 0', async () => {
      await start();
      // What Gemini 0.61 sends to AfterTool for a replace (its fields as the hook reads them).
      const afterTool = {
        session_id: 'no-note-session',
        hook_event_name: 'AfterTool',
        cwd: app.workspace,
        tool_name: 'replace',
        tool_input: {
          file_path: file,
          instruction: 'Mark the first and the last draft line as final.',
          old_string: 'first draft',
          new_string: 'first FINAL',
        },
        tool_response: { llmContent: `Successfully modified file: ${file} (1 replacements).` },
      };
      const hook = spawnSync(process.execPath, [BIN, 'hook', 'gemini'], {
        input: JSON.stringify(afterTool),
        cwd: app.workspace,
        env: { ...process.env, HOME: app.home, DIFFTRAY_HOME: difftrayHome() },
        encoding: 'utf8',
      });
      expect(hook.status, hook.stderr).toBe(0);
      expect(hook.stdout).toBe('');
      // Nothing on stderr either: Gemini takes a hook's stderr as its answer when stdout is empty.
      expect(hook.stderr).toBe('');
    });
  },
);
