/**
 * Workspace folders chosen in the app, in Chromium against the headless app started as from a launcher
 * (no --workspace): the first run asks for a folder; adding and removing folders rewrites Claude Code's
 * lock file on disk at once; a client (the official MCP SDK client, as Claude Code connects) proposing in
 * the new folder is reviewed, and refused once it is removed; a broken settings.json is reported and left
 * byte for byte.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { connectClaudeClient, texts } from '../test/support/claude-client';
import { NUMBERS } from '../test/support/fixtures';
import type { HeadlessApp } from '../test/support/headless-app';
import { until } from '../test/support/wait';
import { appPageSession } from './support/app-page-session';

const session = appPageSession();

/** What Claude Code reads: the lock file named after the bridge port. */
function claudeLock(app: HeadlessApp): { workspaceFolders: string[]; authToken: string } {
  return JSON.parse(readFileSync(path.join(app.claudeLockDir, `${app.runtime.bridge.port}.lock`), 'utf8'));
}

async function lockSays(app: HeadlessApp, folders: string[]): Promise<void> {
  await until(
    () => (JSON.stringify(claudeLock(app).workspaceFolders) === JSON.stringify(folders) ? true : undefined),
    `the Claude Code lock file to list ${folders.join(', ') || 'no folder'}`,
  );
}

function newFolder(app: HeadlessApp, name: string): string {
  const folder = path.join(path.dirname(app.workspace), name);
  mkdirSync(folder, { recursive: true });
  return folder;
}

async function openSettings(page: Page) {
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  const view = page.getByTestId('settings');
  await view.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
  return view;
}

describe('workspace folders chosen in the app', () => {
  it('asks on first run; the folder added is in the lock file on disk and its client is reviewed', async () => {
    const { app, page } = await session.start({ noWorkspaceGiven: true });
    const empty = page.getByTestId('empty-state');
    await empty.getByRole('heading', { name: 'Choose a workspace folder' }).waitFor();
    expect(claudeLock(app).workspaceFolders).toEqual([]);

    const project = newFolder(app, 'my-project');
    await empty.getByRole('textbox', { name: 'Workspace folder to add' }).fill(project);
    await empty.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByRole('heading', { name: 'No reviews waiting' }).waitFor();
    await lockSays(app, [project]);
    expect(JSON.parse(readFileSync(path.join(app.home, '.difftray', 'settings.json'), 'utf8'))).toMatchObject(
      {
        workspaceFolders: [project],
      },
    );

    // Claude Code in that folder: found through the lock file, its edit comes up for review.
    const client = await connectClaudeClient(app.runtime.bridge.port, claudeLock(app).authToken);
    session.afterTest(() => client.close());
    const file = path.join(project, 'numbers.txt');
    writeFileSync(file, NUMBERS.base);
    const answer = client.openDiff(file, NUMBERS.proposed, 'numbers.txt (edit)');
    await page.getByRole('heading', { name: 'numbers.txt' }).first().waitFor();
    await page.getByRole('button', { name: 'Reject…' }).click();
    await page
      .getByRole('dialog')
      .getByRole('button', { name: /Reject/ })
      .last()
      .click();
    expect(texts(await answer).join('\n')).toMatch(/reject/i);
  });

  it('adding and removing folders in Settings rewrites the lock file; a removed folder is refused again', async () => {
    const { app, page } = await session.start();
    const second = newFolder(app, 'second');
    const view = (await openSettings(page)).getByRole('region', { name: 'Workspace folders' });
    await view.getByRole('textbox', { name: 'Workspace folder to add' }).fill(second);
    await view.getByRole('button', { name: 'Add', exact: true }).click();
    await view.getByRole('button', { name: `Remove ${second}` }).waitFor();
    await lockSays(app, [app.workspace, second]);

    await view.getByRole('button', { name: `Remove ${app.workspace}` }).click();
    await lockSays(app, [second]);
    await view.getByRole('button', { name: `Remove ${app.workspace}` }).waitFor({ state: 'detached' });
    expect(await view.getByRole('list', { name: 'Workspace folders' }).getByRole('listitem').count()).toBe(1);

    const client = await connectClaudeClient(app.runtime.bridge.port, claudeLock(app).authToken);
    session.afterTest(() => client.close());
    const file = path.join(app.workspace, 'kept.txt');
    writeFileSync(file, 'as it was\n');
    const refused = await client.openDiff(file, 'changed\n', 'kept.txt (edit)');
    expect(refused.isError).toBe(true);
    expect(texts(refused).join('\n')).toMatch(/outside the workspace/);
    expect(readFileSync(file, 'utf8')).toBe('as it was\n');
  });

  it('a broken settings.json is reported, the folder is not added, and the file is left byte for byte', async () => {
    const broken = '{ "workspaceFolders": [ "/half';
    const { app, page } = await session.start({
      noWorkspaceGiven: true,
      beforeStart: (home) => {
        mkdirSync(path.join(home, '.difftray'), { recursive: true });
        writeFileSync(path.join(home, '.difftray', 'settings.json'), broken);
      },
    });
    const empty = page.getByTestId('empty-state');
    await empty.getByRole('heading', { name: 'Choose a workspace folder' }).waitFor();
    await page
      .getByText(/settings\.json/)
      .first()
      .waitFor();
    await empty.getByRole('textbox', { name: 'Workspace folder to add' }).fill(newFolder(app, 'wanted'));
    await empty.getByRole('button', { name: 'Add', exact: true }).click();
    await empty
      .getByRole('alert')
      .filter({ hasText: /cannot be saved/ })
      .waitFor();
    expect(readFileSync(path.join(app.home, '.difftray', 'settings.json'), 'utf8')).toBe(broken);
    expect(claudeLock(app).workspaceFolders).toEqual([]);
  });
});
