/**
 * The app shell in Chromium against the real headless app: queue groups, the key pause, History,
 * Connections (status, Disconnect), the empty state's Copy buttons (watch mode's too) and folded
 * agents, and the theme (one control, in Settings).
 */
import { describe, expect, it } from 'vitest';
import { connectClaudeClient, texts } from '../test/support/claude-client';
import { waitForReview, waitForSnapshot } from '../test/support/wait';
import { screenshot } from '../test/support/chromium';
import { BASE, PROPOSED } from '../test/support/fixtures';
import { useReviewSession } from './support/review-session';

// Each test opens the page itself, in the colour scheme it needs.
const session = useReviewSession({ openPage: false });
const { open, writeWorkspaceFile, openDiff, diffReady, hunk } = session;

/** Settings → Theme, opened from the sidebar's Settings button (once open, it stays so). */
async function openTheme() {
  const { page } = session;
  const view = page.getByTestId('settings');
  if ((await view.count()) === 0) await page.getByRole('button', { name: 'Settings', exact: true }).click();
  return page.getByRole('radiogroup', { name: 'Theme' });
}

const keysPaused = () => session.page.locator('.dt-app[data-keys-paused="true"]');
const claudeId = () =>
  session.app.runtime.core.snapshot().clients.find((c) => c.protocol === 'claude-ide')!.id;

describe('app shell', () => {
  it('empty state: how to connect each CLI, Copy buttons, workspace folders', async () => {
    await open();
    const { app, page } = session;
    await page.getByRole('heading', { name: 'No reviews waiting' }).waitFor();
    const empty = page.getByTestId('empty-state');
    expect(await empty.getByRole('heading', { name: 'Claude Code' }).isVisible()).toBe(true);
    const clis = ['Gemini CLI', 'Qwen Code', 'GitHub Copilot CLI', 'Agents that write files themselves'];
    for (const cli of clis) {
      expect(await empty.getByRole('heading', { name: cli }).isVisible()).toBe(true);
    }
    // The rarely used ones are folded under "More agents", and all there once it is opened.
    const folded = ['OpenClaude', 'NEXUS3', 'Clio', 'Any script'];
    for (const cli of folded) {
      expect(await empty.getByRole('heading', { name: cli }).isVisible()).toBe(false);
    }
    await empty.getByText(/^More agents: OpenClaude, NEXUS3, Clio, Any script$/).click();
    for (const cli of folded) {
      expect(await empty.getByRole('heading', { name: cli }).isVisible()).toBe(true);
    }
    // Text written as `code` in a guide is shown as code, without its backticks.
    const clio = empty.locator('[data-cli="clio"]');
    expect(await clio.locator('code', { hasText: 'difftray status' }).isVisible()).toBe(true);
    expect(await clio.textContent()).not.toContain('`');
    // Qwen Code finds DiffTray by itself: nothing to export.
    const qwen = empty.locator('[data-cli="qwen-code"]');
    expect(await qwen.textContent()).toContain('Finds DiffTray by itself');
    expect(await qwen.textContent()).not.toMatch(/export/i);
    // Equal commands for different CLIs still have distinct names.
    await empty.getByRole('button', { name: 'Copy Gemini CLI command: /ide enable' }).waitFor();
    await empty.getByRole('button', { name: 'Copy Qwen Code command: /ide enable' }).waitFor();
    await empty.getByRole('button', { name: 'Copy OpenClaude command: /ide' }).waitFor();
    await empty.getByRole('button', { name: 'Copy GitHub Copilot CLI command: /ide' }).waitFor();
    await empty.getByRole('button', { name: 'Copy watch mode command: difftray watch' }).waitFor();
    const folders = empty.getByRole('list', { name: 'Workspace folders' });
    expect(await folders.getByText(app.workspace).isVisible()).toBe(true);
    expect(await empty.getByText(/~\/\.nexus3\/ide/).isVisible()).toBe(true);

    // Clipboard allowed: copied and said so.
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.getByRole('button', { name: 'Copy Claude Code command: claude --ide' }).click();
    await page.getByRole('status').getByText('Copied: claude --ide').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('claude --ide');

    // Clipboard refused: the command is selected instead, and focus stays on the button.
    await page.evaluate(() => {
      Object.defineProperty(navigator, 'clipboard', {
        value: { writeText: () => Promise.reject(new Error('denied')) },
      });
    });
    const copyIde = page.getByRole('button', { name: 'Copy Claude Code command: /ide', exact: true });
    await copyIde.click();
    await page
      .getByRole('status')
      .getByText(/Could not copy/)
      .waitFor();
    expect(await page.evaluate(() => window.getSelection()?.toString())).toBe('/ide');
    expect(await copyIde.evaluate((el) => el === document.activeElement)).toBe(true);
    await screenshot(page, 'empty-state');
  });

  it('queue grouped by session; arrivals never move focus; decision keys pause when a review comes up by itself', async () => {
    await open();
    const { app, page } = session;
    await page.getByRole('heading', { name: 'No reviews waiting' }).waitFor();
    // Monaco loads after the first screen: the diff must be able to be drawn within the key pause.
    await page.locator('html[data-editor="ready"]').waitFor({ state: 'attached' });
    const nexus = await connectClaudeClient(
      app.runtime.bridge.port,
      app.runtime.bridge.tokenFor('nexus3-ide'),
      'x-nexus3-ide-authorization',
    );
    try {
      // The first review arrives on an empty screen: it shows, keys pause, the status line says so. A
      // decision key fires the moment its diff is drawn while keys are paused, as if meant for something
      // before: it must be ignored. (Pressed from inside the page, so the 700 ms pause cannot run out
      // between seeing it and pressing.)
      const pressed = page.evaluate(
        () =>
          new Promise<boolean>((resolve) => {
            const tryPress = () => {
              const paused = document.querySelector('.dt-app[data-keys-paused="true"]');
              const drawn =
                document.querySelector('[data-testid="diff-editor"][data-diff-ready="true"]') &&
                document.querySelector('[data-hunk]');
              if (!paused || !drawn) return false;
              window.dispatchEvent(
                new KeyboardEvent('keydown', {
                  key: 'y',
                  code: 'KeyY',
                  ctrlKey: true,
                  bubbles: true,
                  cancelable: true,
                }),
              );
              return true;
            };
            const observer = new MutationObserver(() => {
              if (!tryPress()) return;
              observer.disconnect();
              resolve(true);
            });
            observer.observe(document.body, { subtree: true, childList: true, attributes: true });
          }),
      );
      const first = writeWorkspaceFile('first.txt', BASE);
      const firstAnswer = openDiff(first, PROPOSED, 'first.txt (edit)');
      await page.locator('#dt-review-title', { hasText: 'first.txt' }).waitFor();
      await page.getByRole('status').getByText('New review: first.txt — keys paused briefly').waitFor();
      expect(await pressed).toBe(true);
      await diffReady('first.txt');
      expect(await hunk(1).getAttribute('data-decision')).toBe('pending');

      // Focus somewhere in the sidebar; then two more reviews arrive, from two sessions.
      const queueTab = page.getByRole('tab', { name: 'Queue' });
      await queueTab.focus();
      const second = writeWorkspaceFile('second.txt', BASE);
      const third = writeWorkspaceFile('third.txt', BASE);
      const secondAnswer = nexus.openDiff(second, PROPOSED, 'second.txt (edit)').catch(() => null);
      await waitForSnapshot(app.runtime.core, (s) => (s.reviews.length === 2 ? true : undefined));
      const thirdAnswer = openDiff(third, PROPOSED, 'third.txt (edit)').catch(() => null);
      await waitForSnapshot(app.runtime.core, (s) => (s.reviews.length === 3 ? true : undefined));

      const queue = page.getByRole('navigation', { name: 'Review queue' });
      await queue.getByRole('heading', { name: 'Claude Code 2.1.0 — 2 pending' }).waitFor();
      await queue.getByRole('heading', { name: 'NEXUS3 2.1.0 — 1 pending' }).waitFor();
      const headings = await queue.getByRole('heading', { level: 3 }).allTextContents();
      expect(headings).toEqual(['Claude Code 2.1.0 — 2 pending', 'NEXUS3 2.1.0 — 1 pending']);
      // Nothing moved: same review on screen, focus where it was, no pause for arrivals.
      expect(await page.locator('#dt-review-title').textContent()).toContain('first.txt');
      expect(await queueTab.evaluate((el) => el === document.activeElement)).toBe(true);
      expect(await keysPaused().count()).toBe(0);

      // Client status: a quiet line in the group, read out by the live region; nothing else moves.
      app.runtime.core.clients.setStatus(claudeId(), 'running tests…');
      await queue.getByText('Claude Code: running tests…').waitFor();
      await page.getByRole('status').getByText('Claude Code: running tests…').waitFor();
      expect(await queueTab.evaluate((el) => el === document.activeElement)).toBe(true);
      await screenshot(page, 'queue-groups');

      // ] walks the queue as shown (third.txt is in Claude Code's group, before NEXUS3's): no pause.
      await page.keyboard.press(']');
      await page.locator('#dt-review-title', { hasText: 'third.txt' }).waitFor();
      expect(await keysPaused().count()).toBe(0);
      await page.keyboard.press('[');
      await diffReady('first.txt');

      // Submitting brings the next one up by itself: paused again.
      await page.keyboard.press('ControlOrMeta+Alt+y');
      await hunk(1).and(page.locator('[data-decision="accepted"]')).waitFor();
      await page.keyboard.press('ControlOrMeta+Enter');
      expect(texts(await firstAnswer)[0]).toBe('FILE_SAVED');
      await page.locator('#dt-review-title', { hasText: 'third.txt' }).waitFor();
      await page
        .getByRole('status')
        .getByText(/New review: third\.txt — keys paused briefly/)
        .waitFor();
      await keysPaused().waitFor();
      await keysPaused().waitFor({ state: 'detached' });
      await diffReady('third.txt');
      await page.keyboard.press('ControlOrMeta+y');
      await hunk(1).and(page.locator('[data-decision="accepted"]')).waitFor();

      // History lists the ended one; opening it shows it read-only.
      await page.getByRole('tab', { name: 'History' }).click();
      const history = page.getByRole('navigation', { name: 'Review history' });
      const entry = history.getByRole('button', { name: /first\.txt/ });
      expect(await entry.textContent()).toContain('Accepted');
      await entry.click();
      await page.getByTestId('ended-banner').waitFor();
      await screenshot(page, 'history');

      // Connections: both clients with their facts; Disconnect NEXUS3 cancels its review.
      await page.getByRole('tab', { name: 'Connections' }).click();
      const connections = page.getByTestId('connections');
      await connections.getByRole('heading', { name: 'NEXUS3 2.1.0' }).waitFor();
      expect(await connections.getByText('running tests…').isVisible()).toBe(true);
      expect(await connections.getByText(String(process.pid)).first().isVisible()).toBe(true);
      await screenshot(page, 'connections');
      await connections.getByRole('button', { name: 'Disconnect NEXUS3' }).click();
      await waitForReview(app.runtime.core, (r) => r.title.includes('second') && r.state === 'cancelled');
      await connections.getByRole('heading', { name: 'NEXUS3 2.1.0' }).waitFor({ state: 'detached' });
      await secondAnswer;
      void thirdAnswer;
    } finally {
      await nexus.close().catch(() => {});
    }
  });

  it('theme: follows the OS live, Light/Dark override remembered; Monaco follows', async () => {
    await open('dark');
    const { page } = session;
    const root = page.locator('html');
    await page.getByRole('heading', { name: 'No reviews waiting' }).waitFor();
    expect(await root.getAttribute('data-theme')).toBe('dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await page.locator('html[data-theme="light"]').waitFor();
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.locator('html[data-theme="dark"]').waitFor();

    // One Theme control, in Settings: none in the sidebar.
    expect(await page.getByRole('combobox', { name: 'Theme' }).count()).toBe(0);
    const theme = await openTheme();
    expect(await page.getByRole('radiogroup', { name: 'Theme' }).count()).toBe(1);
    await theme.getByRole('radio', { name: 'Light' }).check();
    await page.locator('html[data-theme="light"]').waitFor();
    await page.reload();
    await page.locator('html[data-theme="light"]').waitFor();
    expect(await (await openTheme()).getByRole('radio', { name: 'Light' }).isChecked()).toBe(true);
    await (await openTheme()).getByRole('radio', { name: 'System' }).check();
    await page.locator('html[data-theme="dark"]').waitFor();
    await page.keyboard.press('Escape');
    await page.getByTestId('settings').waitFor({ state: 'detached' });

    const file = writeWorkspaceFile('dark.txt', BASE);
    void openDiff(file, PROPOSED, 'dark.txt (edit)');
    await diffReady('dark.txt');
    await page.locator('.monaco-editor.vs-dark').first().waitFor();
    // Focus is visible in dark mode too.
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    const outline = await page.evaluate(
      () => getComputedStyle(document.activeElement as Element).outlineStyle,
    );
    expect(outline).not.toBe('none');
    await screenshot(page, 'review-dark');
    await (await openTheme()).getByRole('radio', { name: 'Light' }).check();
    await page.keyboard.press('Escape');
    await page.locator('.monaco-editor.vs').first().waitFor();
  });
});
