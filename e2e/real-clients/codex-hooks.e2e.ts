/**
 * The real Codex CLI (`codex exec`, pinned 0.171.0) reviewed through DiffTray's hook, decided in
 * Chromium: DiffTray's PreToolUse hook in a temp CODEX_HOME (run untrusted for the test with
 * `--dangerously-bypass-hook-trust`: trusting it is the person's step), the model the loopback Responses
 * stand-in, Codex working in the headless app's workspace. The person accepts, rejects and writes notes
 * in the real UI; checked are the bytes Codex wrote and what its model received next. Skipped, saying
 * why, where the Codex binary or Chromium is missing.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { CHROMIUM_PATH } from '../../test/support/chromium';
import { CODEX_VERSION, findCodexBinary } from '../../test/support/codex-cli';
import { runDiffTraySetup } from '../../test/support/difftray-setup';
import {
  makeCodexSandbox,
  runCodexTurn,
  type CodexSandbox,
  type CodexTurn,
} from '../../test/support/codex-turn';
import { lines } from '../../test/support/fixtures';
import type { HeadlessApp } from '../../test/support/headless-app';
import {
  applyPatchTurn,
  messagesIn,
  shellTurn,
  toolOutputsIn,
  type ResponsesTurn,
} from '../../test/support/responses-stand-in';
import { appPageSession } from '../support/app-page-session';
import { rejectAll, TWO_HUNKS, waitForReviewOf } from './support/review-in-browser';

const codex = findCodexBinary();
const skipReason =
  codex.skipReason ?? (existsSync(CHROMIUM_PATH) ? undefined : `no Chromium at ${CHROMIUM_PATH}`);
if (skipReason) console.warn(`Skipping the real Codex CLI hook tests: ${skipReason}`);

/** Each step may take a while on a busy machine: Codex starts, talks to the model, runs the hook. */
const STEP_MS = 60_000;
const FILE_NAME = 'notes.md';
const ADDED_NAME = 'docs/added.md';
const ADDED_TEXT = lines('# added', 'by the patch');

/** A patch of `FILE_NAME` changing its first and its last draft line: two hunks. */
const TWO_HUNK_PATCH = [
  '*** Begin Patch',
  `*** Update File: ${FILE_NAME}`,
  '@@',
  '-first draft',
  '+first FINAL',
  '@@',
  '-last draft',
  '+last FINAL',
  '*** End Patch',
  '',
].join('\n');

/** Adds `ADDED_NAME` and changes the last draft line of `FILE_NAME`. */
const ADD_AND_UPDATE_PATCH = [
  '*** Begin Patch',
  `*** Add File: ${ADDED_NAME}`,
  '+# added',
  '+by the patch',
  `*** Update File: ${FILE_NAME}`,
  '@@',
  '-last draft',
  '+last FINAL',
  '*** End Patch',
  '',
].join('\n');
const LAST_LINE_FINAL = TWO_HUNKS.base.replace('last draft', 'last FINAL');

/** DiffTray's hook installed as a person does it: `difftray setup codex`, in the sandbox's CODEX_HOME. */
function installHook(box: CodexSandbox): void {
  runDiffTraySetup('codex', { HOME: box.home, CODEX_HOME: box.codexHome });
}

/** The hook command setup wrote into `$CODEX_HOME/hooks.json`. */
function installedHookCommand(box: CodexSandbox): string {
  const hooks = JSON.parse(readFileSync(path.join(box.codexHome, 'hooks.json'), 'utf8')) as {
    hooks: { PreToolUse: { hooks: { command: string }[] }[] };
  };
  return hooks.hooks.PreToolUse[0]!.hooks[0]!.command;
}

/** The output Codex gives its model when a hook denies: the reason, then the call. */
const blockedBy = (reason: string) => `Command blocked by PreToolUse hook: ${reason}`;

describe.skipIf(skipReason !== undefined)(
  `the real Codex CLI ${CODEX_VERSION} through DiffTray's hook, decided in DiffTray`,
  () => {
    const session = appPageSession();
    let app: HeadlessApp;
    let page: Page;
    let box: CodexSandbox;

    /** The app and its page, and a Codex sandbox working in the app's workspace with DiffTray's hook. */
    const start = async () => {
      ({ app, page } = await session.start());
      box = makeCodexSandbox('codex-hooks', { workspace: app.workspace });
      session.afterTest(() => box.cleanup());
      installHook(box);
      box.writeFiles({ [FILE_NAME]: TWO_HUNKS.base });
    };

    /**
     * Starts `codex exec` playing `script`; the returned run settles when Codex exits. Awaited again
     * after the app has closed (which ends a review still open), so no Codex outlives its test.
     */
    const runCodex = (script: ResponsesTurn[]): Promise<CodexTurn> => {
      const run = runCodexTurn(box, {
        binary: codex.path!,
        script,
        bypassHookTrust: true,
        env: { DIFFTRAY_HOME: path.join(app.home, '.difftray') },
        timeoutMs: 2 * STEP_MS,
      });
      session.afterTest(() => run.catch(() => undefined));
      return run;
    };

    /** Waits for `what` in the page, failing at once, with Codex's transcript, if Codex exits first. */
    const shown = async (locator: Locator, run: Promise<CodexTurn>, what: string) => {
      const exited = run.then(({ result }) => {
        throw new Error(
          `codex exec exited (${result.exitCode}) before ${what} appeared in DiffTray's window:\n` +
            `${result.stdout}\n${result.stderr}`,
        );
      });
      try {
        await Promise.race([locator.waitFor({ timeout: STEP_MS }), exited]);
      } catch (error) {
        if (error instanceof Error && error.name === 'TimeoutError') {
          throw new Error(`${what} did not appear in DiffTray's window within ${STEP_MS / 1000} s`, {
            cause: error,
          });
        }
        throw error;
      }
    };

    /** Codex ended well, or the failure shows its transcript. */
    const finished = async (run: Promise<CodexTurn>): Promise<CodexTurn> => {
      const turn = await run;
      const transcript = `${turn.result.stdout}\n${turn.result.stderr}`;
      expect(turn.result.exitCode, `codex exec failed:\n${transcript}`).toBe(0);
      // A hook answer Codex refuses is a failed hook, after which Codex runs the call as it is.
      expect(turn.result.stderr, transcript).not.toContain('hook: PreToolUse Failed');
      return turn;
    };

    const reviewTitled = (title: string) => page.locator('#dt-review-title', { hasText: title });
    const button = (name: string) => page.getByRole('button', { name, exact: true });
    const noteBox = () => page.getByRole('textbox', { name: 'Note to the agent' });
    const noReviewsWaiting = () => page.getByRole('heading', { name: 'No reviews waiting' }).waitFor();
    /** What the model received after its one tool call: the tool's output and any developer note. */
    const afterTheCall = ({ standIn }: CodexTurn) => {
      const next = standIn.requestsReceived()[1];
      return { outputs: toolOutputsIn(next), developer: messagesIn(next, 'developer').join('\n') };
    };
    const fileIn = (relative: string) => path.join(app.workspace, relative);

    it('accept hunk 1, reject hunk 2, a note: Codex writes exactly hunk 1 and its model is told what was kept', async () => {
      await start();
      const note = 'Keep the last line a draft: the release is not final yet.';
      const run = runCodex([applyPatchTurn(TWO_HUNK_PATCH)]);

      await shown(reviewTitled(`apply_patch ${FILE_NAME}`), run, 'the review of the patch');
      await waitForReviewOf(page, FILE_NAME, STEP_MS);
      // Nothing is written while the person decides.
      expect(box.readFile(FILE_NAME)).toBe(TWO_HUNKS.base);
      await button('Accept hunk 1').click();
      await button('Reject hunk 2').click();
      await noteBox().fill(note);
      await button('Submit').click();
      await noReviewsWaiting();

      const turn = await finished(run);
      expect(readFileSync(fileIn(FILE_NAME), 'utf8')).toBe(TWO_HUNKS.composed);
      const { outputs, developer } = afterTheCall(turn);
      expect(outputs).toEqual([expect.objectContaining({ tool: 'apply_patch' })]);
      expect(outputs[0]?.text).toContain(`Success. Updated the following files:\nM ${FILE_NAME}`);
      // The model's history still holds its own two-hunk patch: the note says what was left.
      expect(developer).toContain('The reviewer accepted only part of your patch in DiffTray');
      expect(developer).toContain(`part of your change to ${FILE_NAME}`);
      expect(developer).toContain('Rejected: line 9.');
      expect(developer).toContain(`Note from the reviewer: ${note}`);
    });

    it('a patch sent through the shell (apply_patch heredoc) is reviewed as a patch, and Codex writes what was kept', async () => {
      await start();
      const run = runCodex([shellTurn(`apply_patch <<'EOF'\n${TWO_HUNK_PATCH}EOF\n`)]);

      await shown(
        reviewTitled(`apply_patch ${FILE_NAME}`),
        run,
        'the review of the patch sent through the shell',
      );
      await waitForReviewOf(page, FILE_NAME, STEP_MS);
      await button('Accept hunk 1').click();
      await button('Reject hunk 2').click();
      await button('Submit').click();
      await noReviewsWaiting();

      const turn = await finished(run);
      expect(readFileSync(fileIn(FILE_NAME), 'utf8')).toBe(TWO_HUNKS.composed);
      const { outputs, developer } = afterTheCall(turn);
      expect(outputs).toEqual([expect.objectContaining({ tool: 'exec_command' })]);
      expect(outputs[0]?.text).toContain(`Success. Updated the following files:\nM ${FILE_NAME}`);
      expect(developer).toContain('Rejected: line 9.');
    });

    it('reject with a reason: the file is untouched and the model gets the reason as the tool output', async () => {
      await start();
      const reason = 'Wrong file: the drafts are tracked in CHANGELOG.md.';
      const run = runCodex([applyPatchTurn(TWO_HUNK_PATCH)]);

      await shown(reviewTitled(`apply_patch ${FILE_NAME}`), run, 'the review of the patch');
      await rejectAll(page, reason);

      const turn = await finished(run);
      expect(readFileSync(fileIn(FILE_NAME), 'utf8')).toBe(TWO_HUNKS.base);
      const { outputs } = afterTheCall(turn);
      expect(outputs).toEqual([expect.objectContaining({ tool: 'apply_patch' })]);
      expect(outputs[0]?.text).toContain(blockedBy(reason));
    });

    it('a shell command denied with a note never runs, and the model reads why', async () => {
      await start();
      const note = 'No side effects in this task.';
      const command = 'printf ran > ran.txt';
      const run = runCodex([shellTurn(command)]);

      const card = page.getByTestId('approval-card');
      await shown(card.getByText(command), run, 'the approval card for the command');
      await noteBox().fill(note);
      await button('Deny').click();
      await noReviewsWaiting();

      const turn = await finished(run);
      expect(existsSync(fileIn('ran.txt'))).toBe(false);
      const { outputs } = afterTheCall(turn);
      expect(outputs).toEqual([expect.objectContaining({ tool: 'exec_command' })]);
      expect(outputs[0]?.text).toContain(blockedBy(note));
    });

    it('a shell command allowed with a note runs, and the model reads the note', async () => {
      await start();
      const command = 'printf ran > ran.txt';
      const run = runCodex([shellTurn(command)]);

      const card = page.getByTestId('approval-card');
      await shown(card.getByText(command), run, 'the approval card for the command');
      await noteBox().fill('Fine, once.');
      await button('Allow').click();
      await noReviewsWaiting();

      const turn = await finished(run);
      expect(readFileSync(fileIn('ran.txt'), 'utf8')).toBe('ran');
      const { outputs, developer } = afterTheCall(turn);
      expect(outputs[0]?.text).toContain('Process exited with code 0');
      expect(developer).toContain('Note from the reviewer: Fine, once.');
    });

    it('a patch that adds one file and updates another is one review; accepted, both land as patched', async () => {
      await start();
      const run = runCodex([applyPatchTurn(ADD_AND_UPDATE_PATCH)]);

      await shown(reviewTitled(`apply_patch ${ADDED_NAME} and 1 more`), run, 'the review of both files');
      await expect.poll(() => page.locator('.dt-file-row').count()).toBe(2);
      await button('Accept all').click();
      await noteBox().fill('Link the new page from the README next.');
      await button('Submit').click();
      await noReviewsWaiting();

      const turn = await finished(run);
      expect(readFileSync(fileIn(ADDED_NAME), 'utf8')).toBe(ADDED_TEXT);
      expect(readFileSync(fileIn(FILE_NAME), 'utf8')).toBe(LAST_LINE_FINAL);
      const { outputs, developer } = afterTheCall(turn);
      expect(outputs[0]?.text).toContain(`A ${ADDED_NAME}\nM ${FILE_NAME}`);
      expect(developer).toContain('Note from the reviewer: Link the new page from the README next.');
      expect(developer).not.toContain('part of your patch');
    });

    it('the added file rejected and the update accepted: only the update lands, and the model is told', async () => {
      await start();
      const run = runCodex([applyPatchTurn(ADD_AND_UPDATE_PATCH)]);

      await shown(reviewTitled(`apply_patch ${ADDED_NAME} and 1 more`), run, 'the review of both files');
      await page.getByRole('button', { name: /^Reject file .*added\.md$/ }).click();
      await page.getByRole('button', { name: /^Accept file .*notes\.md$/ }).click();
      await button('Submit').click();
      await noReviewsWaiting();

      const turn = await finished(run);
      expect(existsSync(fileIn(ADDED_NAME))).toBe(false);
      expect(readFileSync(fileIn(FILE_NAME), 'utf8')).toBe(LAST_LINE_FINAL);
      const { outputs, developer } = afterTheCall(turn);
      expect(outputs[0]?.text).toContain(`Success. Updated the following files:\nM ${FILE_NAME}`);
      expect(outputs[0]?.text).not.toContain(`A ${ADDED_NAME}`);
      expect(developer).toContain('The reviewer accepted only part of your patch in DiffTray');
      expect(developer).toContain(`Rejected whole: ${ADDED_NAME}.`);
    });
  },
);

describe.skipIf(codex.path === undefined)(
  `the real Codex CLI ${CODEX_VERSION} with DiffTray not running`,
  () => {
    it('the hook prints nothing and exits 0, and Codex applies the patch as it would without DiffTray', async () => {
      const box = makeCodexSandbox('codex-hooks-off');
      try {
        installHook(box);
        box.writeFiles({ [FILE_NAME]: TWO_HUNKS.base });
        // No lock file in this DIFFTRAY_HOME: no DiffTray to ask.
        const difftrayHome = path.join(box.home, '.difftray');
        const turn = await runCodexTurn(box, {
          binary: codex.path!,
          script: [applyPatchTurn(TWO_HUNK_PATCH)],
          bypassHookTrust: true,
          env: { DIFFTRAY_HOME: difftrayHome },
          timeoutMs: 2 * STEP_MS,
        });

        expect(turn.result.exitCode, `codex exec failed:\n${turn.result.stderr}`).toBe(0);
        expect(turn.result.stderr).toContain('hook: PreToolUse Completed');
        expect(box.readFile(FILE_NAME)).toBe(TWO_HUNKS.proposed);

        // The same hook run directly with the stdin Codex gives it: nothing on stdout, one line on stderr.
        box.writeFiles({ [FILE_NAME]: TWO_HUNKS.base });
        const direct = spawnSync('/bin/sh', ['-c', installedHookCommand(box)], {
          cwd: box.workspace,
          env: { PATH: process.env.PATH, HOME: box.home, DIFFTRAY_HOME: difftrayHome },
          input: JSON.stringify({
            session_id: 'session-1',
            cwd: box.workspace,
            hook_event_name: 'PreToolUse',
            tool_name: 'apply_patch',
            tool_input: { command: TWO_HUNK_PATCH },
            tool_use_id: 'call_1',
          }),
          encoding: 'utf8',
        });
        expect(direct.status, direct.stderr).toBe(0);
        expect(direct.stdout).toBe('');
        expect(direct.stderr).toMatch(
          /^difftray hook: no decision \(DiffTray is not running \(no lock file in .+\)\); Codex CLI asks as usual\n$/,
        );
      } finally {
        box.cleanup();
      }
    });
  },
);
