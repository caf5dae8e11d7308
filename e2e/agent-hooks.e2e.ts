/**
 * Setting up an agent's hooks from the app, in Chromium against the headless app: the empty state lists
 * each hook agent with its setup command; Connections' "Review before it writes" sets up Codex in a temp
 * CODEX_HOME, showing the exact change before Apply, and then reads it back as not trusted yet, until
 * the trust record Codex itself writes is there and the window regains focus.
 */
import { existsSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { codexHookKey, codexTrustHash } from '../src-main/core/setup/codex-trust';
import { screenshot } from '../test/support/chromium';
import { makeTempDir } from '../test/support/temp';
import { appPageSession } from './support/app-page-session';
import { renderedLines } from './support/line-breaks';

const session = appPageSession();

/** config.toml as Codex writes it once the person trusted the hooks of `events` in `/hooks`. */
function trustInCodex(codexHome: string, events: readonly string[]): void {
  const hooksFile = path.join(codexHome, 'hooks.json');
  const written = JSON.parse(readFileSync(hooksFile, 'utf8')) as {
    hooks: Record<string, Array<{ hooks: unknown[] }>>;
  };
  const records = events.map((event) => {
    const group = written.hooks[event]![0]!;
    const hash = codexTrustHash(event, group, group.hooks[0]);
    return `[hooks.state."${codexHookKey(hooksFile, event, 0, 0)}"]\ntrusted_hash = "${hash}"\n`;
  });
  writeFileSync(path.join(codexHome, 'config.toml'), records.join('\n'));
}

describe("agents' hooks from the app", () => {
  it('Codex set up from Connections: the change shown first, then "not trusted yet" until Codex trusts it', async () => {
    const temp = makeTempDir('e2e-codex-home');
    session.afterTest(temp.cleanup);
    const codexHome = realpathSync(temp.dir);
    const hooksFile = path.join(codexHome, 'hooks.json');
    const { page } = await session.start({ env: { CODEX_HOME: codexHome } });

    // The empty state names the one command for each hook agent.
    const empty = page.getByTestId('empty-state');
    await empty.getByRole('heading', { name: 'Review before it writes' }).waitFor();
    await empty.getByRole('button', { name: 'Copy Codex CLI command: difftray setup codex' }).waitFor();
    await empty.getByRole('button', { name: 'Copy Qwen Code command: difftray setup qwen' }).waitFor();

    await page.getByRole('tab', { name: 'Connections' }).click();
    const codex = page.getByTestId('agent-hooks').locator('[data-agent="codex"]');
    await codex.getByText('Not set up').waitFor();
    await codex.getByRole('button', { name: 'Set up Codex CLI hooks…' }).click();

    const dialog = page.getByRole('dialog', { name: 'Set up Codex CLI hooks' });
    const plan = dialog.getByTestId('hooks-plan');
    await plan.getByText(hooksFile, { exact: true }).waitFor();
    await plan.getByText(`Create ${hooksFile}`).waitFor();
    await plan.getByText(/Add a PreToolUse hook .*hook codex/).waitFor();
    await plan.getByText(/Add a Stop hook: .*hook codex \(timeout 3600 s\)/).waitFor();
    await dialog
      .getByTestId('hooks-pending-step')
      .getByText(/type \/hooks and press t/)
      .waitFor();
    // Written for the terminal too: its `codex` is shown as code, without backticks.
    const pending = dialog.getByTestId('hooks-pending-step');
    expect(await pending.locator('code', { hasText: 'codex' }).count()).toBe(1);
    expect(await pending.textContent()).not.toContain('`');
    // Paths and commands wrap only after a path separator or at a space, never inside a name.
    for (const code of await plan.locator('code').all()) {
      const lines = await renderedLines(code);
      for (const line of lines.slice(0, -1)) expect(line).toMatch(/[/\\ ]$/);
    }
    // The hook command is long enough to wrap in the dialog: the check above did look at a break.
    expect((await renderedLines(plan.locator('code.dt-hooks-command').first())).length).toBeGreaterThan(1);
    // Shown, not done: nothing is written before Apply.
    expect(existsSync(hooksFile)).toBe(false);
    await screenshot(page, 'agent-hooks-plan');

    await dialog.getByRole('button', { name: 'Apply', exact: true }).click();
    await dialog.getByText('Done: Codex CLI’s hooks are set up.', { exact: false }).waitFor();
    expect(readFileSync(hooksFile, 'utf8')).toMatch(/cli\.cjs\\" hook codex"/);
    expect(existsSync(path.join(codexHome, 'config.toml'))).toBe(false);
    await dialog.getByRole('button', { name: 'Close', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });

    await codex.getByText('Installed — not trusted yet: in Codex type /hooks, then t').waitFor();
    await codex.getByRole('button', { name: 'Remove Codex CLI hooks…' }).waitFor();
    await screenshot(page, 'agent-hooks-connections');

    // The person trusts the three hooks in Codex; back in DiffTray, the list reads the files again.
    trustInCodex(codexHome, ['PreToolUse', 'UserPromptSubmit', 'Stop']);
    await page.evaluate(() => window.dispatchEvent(new Event('focus')));
    await codex.getByText('Hooks installed', { exact: true }).waitFor();
  });
});
