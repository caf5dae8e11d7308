/**
 * The real Claude Code CLI (`claude --ide`, interactive, in tmux) against DiffTray headless: it finds
 * DiffTray's lock file in its config folder, connects over the IDE protocol (MCP on WebSocket), and its
 * model's Edit (from a loopback stand-in) opens in DiffTray as the IDE's diff (openDiff). The person
 * decides in DiffTray's window in Chromium; Claude Code writes what DiffTray answers. Skipped, saying
 * why, where the CLI's platform package or tmux is missing.
 *
 * Observed with 2.1.197 and 2.1.332: with `--ide` it connects at start without asking (no IDE or trust
 * prompt once `.claude.json` has onboarding done, the key approved and the folder trusted). An edit shows
 * in both places at once: DiffTray's review and Claude Code's own "Do you want to make this edit…?" in
 * the terminal, headed "Opened changes in DiffTray". Whichever answers first settles it: DiffTray's
 * answer closes the terminal prompt; a "Yes" in the terminal writes the proposal as is and closes
 * DiffTray's review (close_tab). In accept-edits mode nothing is asked, so nothing reaches DiffTray; nor
 * in auto mode, where 2.1.332 starts ("Auto mode is now Claude Code's default permission mode") unless
 * given `--permission-mode default` (its status line then says "manual mode on").
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { startAnthropicStandIn, type AnthropicStandIn } from '../../test/support/anthropic-stand-in';
import {
  CLAUDE_CODE_VERSIONS,
  findClaudeBinary,
  type ClaudeCodeVersion,
} from '../../test/support/claude-code';
import { startClaudeIdeSession, type ClaudeIdeSession } from '../../test/support/claude-ide-session';
import type { HeadlessApp } from '../../test/support/headless-app';
import { terminalUnavailable } from '../../test/support/tmux-terminal';
import { until } from '../../test/support/wait';
import { appPageSession } from '../support/app-page-session';
import { TWO_HUNKS, acceptFirstRejectSecond, rejectAll, waitForReviewOf } from './support/review-in-browser';
import { messageOf } from '../../shared/error-message';

const terminalSkip = terminalUnavailable();
const binaries = CLAUDE_CODE_VERSIONS.map((version) => findClaudeBinary(version));
for (const { version, skipReason } of binaries) {
  const why = terminalSkip ?? skipReason;
  if (why) console.warn(`Skipping the real Claude Code ${version} (claude --ide) tests: ${why}`);
}

/**
 * The mode in which Claude Code asks before an edit ("manual", `default` on the command line): 2.1.197
 * starts in it; 2.1.332 starts in auto mode, which writes without asking, so it is named.
 */
const MANUAL_MODE_ARGS: Record<ClaudeCodeVersion, string[]> = {
  '2.1.332': ['--permission-mode', 'default'],
  '2.1.197': [],
};

/** Each step may take a while on a busy machine: the CLI starts, connects, talks to the model. */
const STEP_MS = 60_000;
const FILE_NAME = 'notes.md';
const PROMPT = `Finalize the drafts in ${FILE_NAME}`;

/** How each version shows an edit rejected through the IDE. */
const REJECTED_UPDATE: Record<ClaudeCodeVersion, string> = {
  '2.1.332': `Rejected update to ${FILE_NAME}`,
  '2.1.197': `User rejected update to ${FILE_NAME}`,
};

/** One Edit from the first changed line to the last: DiffTray sees it as two hunks. */
const EDIT = {
  old_string: TWO_HUNKS.base.slice(TWO_HUNKS.base.indexOf('first draft'), TWO_HUNKS.base.indexOf('\nend')),
  new_string: TWO_HUNKS.proposed.slice(
    TWO_HUNKS.proposed.indexOf('first FINAL'),
    TWO_HUNKS.proposed.indexOf('\nend'),
  ),
};

describe.each(binaries)('Claude Code $version', (claude) => {
  describe.skipIf((terminalSkip ?? claude.skipReason) !== undefined)(
    'the real Claude Code CLI over the IDE protocol (claude --ide)',
    () => {
      const session = appPageSession();
      let cli: ClaudeIdeSession | undefined;
      // Registered after the session's: vitest runs after-hooks in reverse, so the CLI is gone before the
      // app's folders (its HOME) are removed.
      afterEach(async () => {
        await cli?.stop();
        cli = undefined;
      });

      interface Running {
        app: HeadlessApp;
        page: Page;
        file: string;
        standIn: AnthropicStandIn;
        cli: ClaudeIdeSession;
        /** Waits for `probe`, failing with what is missing, the model turns served and the CLI's screen. */
        waitFor<T>(probe: () => T | undefined, what: string): Promise<T>;
      }

      /** DiffTray, the model stand-in and `claude --ide` in the workspace, connected both ways. */
      const startConnected = async (args = MANUAL_MODE_ARGS[claude.version]): Promise<Running> => {
        const { app, page } = await session.start();
        const file = path.join(app.workspace, FILE_NAME);
        writeFileSync(file, TWO_HUNKS.base);
        // Claude Code edits only a file it has read in this session.
        const standIn = await startAnthropicStandIn([
          { tool: 'Read', input: { file_path: file } },
          { tool: 'Edit', input: { file_path: file, ...EDIT } },
          { text: 'Edited notes.md.' },
        ]);
        session.afterTest(() => standIn.close());
        const started = startClaudeIdeSession({
          binary: claude.path!,
          args,
          workspace: app.workspace,
          home: app.home,
          tmp: app.tmpDir,
          baseUrl: standIn.baseUrl,
        });
        cli = started;
        const waitFor = async <T>(probe: () => T | undefined, what: string): Promise<T> => {
          try {
            return await until(probe, what, STEP_MS);
          } catch (error) {
            throw new Error(
              `${messageOf(error)} (model turns served: ${standIn.turnsServed()})\n--- screen ---\n${started.screen()}`,
              { cause: error },
            );
          }
        };
        const client = await waitFor(
          () =>
            app.runtime.core.clients
              .list()
              // Listed on connection; named and versioned once its MCP initialize arrives.
              .find(
                (candidate) =>
                  candidate.protocol === 'claude-ide' && candidate.connected && candidate.version,
              ),
          'Claude Code to connect to DiffTray (its lock file in <home>/.claude/ide)',
        );
        expect(client).toMatchObject({ name: 'Claude Code', version: claude.version });
        // Claude Code's side of it: its status names the IDE of the lock file.
        await waitFor(() => (started.screen().includes('❯') ? true : undefined), "Claude Code's prompt");
        started.submitPrompt('/status');
        await waitFor(
          () => (/IDE:\s+Connected to DiffTray extension/.test(started.screen()) ? true : undefined),
          'Claude Code\'s /status to show "IDE: Connected to DiffTray extension"',
        );
        started.press('Escape');
        await waitFor(
          // Its footer: "Esc to cancel" (2.1.197), "Esc to close" (2.1.332).
          () => (/Esc to (cancel|close)/.test(started.screen()) ? undefined : true),
          'Claude Code to close its /status panel',
        );
        return { app, page, file, standIn, cli: started, waitFor };
      };

      /** Connected, the prompt sent: the model reads the file, then edits it. */
      const startAndPrompt = async (): Promise<Running> => {
        const running = await startConnected();
        running.cli.submitPrompt(PROMPT);
        return running;
      };

      /** The edit waits in DiffTray and, beside it, Claude Code's own question in the terminal. */
      const waitForEditInBoth = async ({ page, file, cli, waitFor }: Running) => {
        await waitForReviewOf(page, FILE_NAME, STEP_MS);
        await waitFor(
          () => (cli.screen().includes(`Do you want to make this edit to ${FILE_NAME}?`) ? true : undefined),
          "Claude Code's own permission prompt for the edit",
        );
        // The IDE's name comes from DiffTray's lock file.
        expect(cli.screen()).toContain('Opened changes in DiffTray');
        expect(readFileSync(file, 'utf8')).toBe(TWO_HUNKS.base);
      };

      it(
        'its edit opens in DiffTray; hunk 1 accepted, hunk 2 rejected: Claude Code writes exactly the composed text',
        async () => {
          const running = await startAndPrompt();
          const { page, file, standIn, cli, waitFor } = running;
          await waitForEditInBoth(running);
          // Decided in DiffTray only: the IDE's answer settles Claude Code's terminal prompt too.
          await acceptFirstRejectSecond(page);
          await waitFor(
            () => (readFileSync(file, 'utf8') !== TWO_HUNKS.base ? true : undefined),
            `Claude Code to write ${FILE_NAME}`,
          );
          expect(readFileSync(file, 'utf8')).toBe(TWO_HUNKS.composed);
          await waitFor(
            () => (standIn.turnsServed() === 3 ? true : undefined),
            'the model to get its last turn',
          );
          expect(cli.screen()).not.toContain('Do you want to make this edit');
          // The model hears that the person changed its proposal (the text is Claude Code's own).
          expect(standIn.toolResultOfTurn(1)).toMatchObject({
            tool: 'Edit',
            isError: false,
            text: expect.stringContaining('The user modified your proposed changes before accepting them.'),
          });
          expect(readFileSync(file, 'utf8')).toBe(TWO_HUNKS.composed);
        },
        4 * STEP_MS,
      );

      it(
        'rejected in DiffTray: the file stays as it was, Claude Code ends the turn and tells the model on the next prompt',
        async () => {
          const running = await startAndPrompt();
          const { page, file, standIn, cli, waitFor } = running;
          await waitForEditInBoth(running);
          await rejectAll(page, 'keep the drafts');
          await waitFor(
            () => (cli.screen().includes(REJECTED_UPDATE[claude.version]) ? true : undefined),
            'Claude Code to show the rejection',
          );
          expect(cli.screen()).not.toContain('Do you want to make this edit');
          // A rejection is the person's "No": the turn ends without asking the model.
          expect(standIn.turnsServed()).toBe(2);
          expect(readFileSync(file, 'utf8')).toBe(TWO_HUNKS.base);

          cli.submitPrompt('What happened?');
          await waitFor(
            () => (standIn.turnsServed() === 3 ? true : undefined),
            'the next prompt to reach the model',
          );
          // Claude Code's own refusal text; DiffTray's note has no way through the IDE protocol.
          const result = standIn.toolResultOfTurn(1);
          expect(result).toMatchObject({ tool: 'Edit', isError: true });
          expect(result?.text).toContain("The user doesn't want to proceed with this tool use.");
          expect(standIn.lastMessageText()).toContain('[Request interrupted by user for tool use]');
          expect(standIn.lastMessageText()).not.toContain('keep the drafts');
          expect(readFileSync(file, 'utf8')).toBe(TWO_HUNKS.base);
        },
        4 * STEP_MS,
      );

      it(
        "answered in Claude Code's terminal instead: it writes its own proposal, and DiffTray's review ends as cancelled",
        async () => {
          const running = await startAndPrompt();
          const { app, page, file, standIn, cli, waitFor } = running;
          await waitForEditInBoth(running);
          // A person choosing "1. Yes" (the default) at Claude Code's prompt.
          cli.press('Enter');
          await waitFor(
            () => (readFileSync(file, 'utf8') !== TWO_HUNKS.base ? true : undefined),
            `Claude Code to write ${FILE_NAME}`,
          );
          expect(readFileSync(file, 'utf8')).toBe(TWO_HUNKS.proposed);
          // Claude Code closes the diff it no longer waits for (close_tab): the review ends as cancelled.
          const banner = page.getByTestId('ended-banner');
          await banner.waitFor({ timeout: STEP_MS });
          expect(await banner.textContent()).toContain(
            'Cancelled: closed by the client — your decisions were not sent to Claude Code.',
          );
          expect(app.runtime.core.queue.summaries().map((review) => review.state)).toEqual(['cancelled']);
          await waitFor(
            () => (standIn.turnsServed() === 3 ? true : undefined),
            'the model to get its last turn',
          );
          expect(standIn.toolResultOfTurn(1)?.text).toContain('has been updated successfully');
        },
        4 * STEP_MS,
      );

      it(
        'in "accept edits" mode (shift+tab, or "Yes, allow all edits") edits never reach DiffTray',
        async () => {
          const { app, file, standIn, cli, waitFor } = await startConnected();
          cli.press('BTab');
          await waitFor(
            () => (cli.screen().includes('accept edits on') ? true : undefined),
            'Claude Code to switch to accept-edits mode',
          );
          cli.submitPrompt(PROMPT);
          await waitFor(
            () => (standIn.turnsServed() === 3 ? true : undefined),
            'the model to get its last turn',
          );
          // Written at once, no review: DiffTray is asked only when Claude Code would ask the person.
          expect(readFileSync(file, 'utf8')).toBe(TWO_HUNKS.proposed);
          expect(app.runtime.core.queue.summaries()).toEqual([]);
        },
        4 * STEP_MS,
      );

      it.runIf(claude.version === '2.1.332')(
        'in auto mode, where 2.1.332 starts by default, edits never reach DiffTray either',
        async () => {
          const { app, file, standIn, cli, waitFor } = await startConnected([]);
          expect(cli.screen()).toContain('auto mode on');
          cli.submitPrompt(PROMPT);
          await waitFor(
            () => (standIn.turnsServed() === 3 ? true : undefined),
            'the model to get its last turn',
          );
          expect(readFileSync(file, 'utf8')).toBe(TWO_HUNKS.proposed);
          expect(app.runtime.core.queue.summaries()).toEqual([]);
        },
        4 * STEP_MS,
      );
    },
  );
});
