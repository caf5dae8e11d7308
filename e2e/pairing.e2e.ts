/**
 * Pairing a remote agent, in Chromium against the headless app: the person presses "Pair a remote agent"
 * in Connections, the code is read from the page, the built `difftray pair` runs from another HOME (the
 * "remote side": no lock file there) with that code, the paired client shows up in Connections, a
 * `difftray review` from there comes up labelled with the remote host and is accepted in the UI (the CLI
 * writes the accepted text on its side), and the person revokes the client.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createTwoFilesPatch } from 'diff';
import { describe, expect, it } from 'vitest';
import { screenshot } from '../test/support/chromium';
import { renderedLines } from './support/line-breaks';
import { makeTempDir } from '../test/support/temp';
import { appPageSession } from './support/app-page-session';
import { diffReady } from './support/review-page';

const CLI = path.resolve(__dirname, '..', 'dist', 'main', 'cli.cjs');
const BASE = 'one\ntwo\nthree\n';
const EDITED = 'one\nTWO, from the remote agent\nthree\n';

const session = appPageSession();

function remoteSide() {
  const temp = makeTempDir('e2e-remote');
  session.afterTest(temp.cleanup);
  const root = realpathSync(temp.dir);
  const home = path.join(root, 'home');
  const project = path.join(root, 'project');
  mkdirSync(home, { recursive: true });
  mkdirSync(project, { recursive: true });
  return {
    home,
    project,
    env: { PATH: process.env.PATH ?? '', HOME: home, DIFFTRAY_HOME: path.join(home, '.difftray') },
  };
}

function difftray(
  args: string[],
  env: NodeJS.ProcessEnv,
  cwd: string,
): Promise<{ code: number | null; out: string }> {
  const child = spawn(process.execPath, [CLI, ...args], { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
  session.afterTest(() => child.exitCode === null && child.kill());
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, out })));
}

describe('pairing a remote agent from the app', () => {
  it('pair with the code on screen, review from the remote side, accept, revoke', async () => {
    const { app, page } = await session.start();
    await page.getByRole('tab', { name: 'Connections' }).click();
    const section = page.getByTestId('pairing');
    await section.getByRole('button', { name: 'Pair a remote agent' }).click();
    const code = (await section.getByTestId('pairing-code').textContent())?.trim() ?? '';
    expect(code).toMatch(/^\d{6}$/);
    const port = app.runtime.native.port;
    expect(await section.textContent()).toContain(`ssh -R ${port}:127.0.0.1:${port}`);
    // Each command is a block of its own with its Copy button, wrapped (if at all) only between words.
    const tunnel = `ssh -R ${port}:127.0.0.1:${port} you@remote-host`;
    const pair = `difftray pair --port ${port}`;
    for (const command of [tunnel, pair]) {
      const block = section.locator('.dt-command-block', { has: page.locator('code', { hasText: command }) });
      await block.getByRole('button', { name: new RegExp(`^Copy .* command: ${command}$`) }).waitFor();
      const lines = await renderedLines(block.locator('code'));
      expect(lines.join('')).toBe(command);
      expect(lines.map((line) => command.split(' ').some((word) => line.trim().endsWith(word)))).toEqual(
        lines.map(() => true),
      );
    }
    const fingerprint = (await section.getByTestId('pairing-fingerprint').textContent())?.trim() ?? '';
    expect(fingerprint).toMatch(/^SHA256:[A-Za-z0-9+/]{43}$/);
    await screenshot(page, 'pairing-code');

    const remote = remoteSide();
    const paired = await difftray(
      ['pair', '--port', String(port), '--code', code, '--name', 'laptop'],
      remote.env,
      remote.project,
    );
    expect(paired).toMatchObject({ code: 0 });
    // The key `difftray pair` pinned is the one the window shows beside the code.
    expect(paired.out).toContain(`DiffTray's host key: ${fingerprint}`);
    // Used: the code leaves the page, the client is listed.
    await section.getByTestId('pairing-code').waitFor({ state: 'detached' });
    const listed = section.getByTestId('paired-client').filter({ hasText: 'laptop' });
    await listed.waitFor();

    const file = path.join(remote.project, 'notes.txt');
    writeFileSync(file, BASE);
    writeFileSync(
      path.join(remote.project, 'change.patch'),
      createTwoFilesPatch('a/notes.txt', 'b/notes.txt', BASE, EDITED),
    );
    const reviewing = difftray(
      ['review', 'change.patch', '--title', 'remote notes'],
      remote.env,
      remote.project,
    );
    await diffReady(page, 'remote notes');
    await page.getByText(`${file} on laptop`).first().waitFor();
    expect(await page.locator('.dt-review-client').textContent()).toBe('difftray review on laptop');
    await screenshot(page, 'pairing-remote-review');
    await page.getByRole('button', { name: 'Submit', exact: true }).click();
    const result = await reviewing;
    expect(result.code).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(EDITED);

    await page.getByRole('tab', { name: 'Connections' }).click();
    await listed.getByText(/last used/).waitFor();
    await section.getByRole('button', { name: 'Revoke laptop' }).click();
    await listed.waitFor({ state: 'detached' });
    const refused = await difftray(['review', 'change.patch'], remote.env, remote.project);
    expect(refused.code).toBe(2);
    expect(refused.out).toContain(
      "(1002 Invalid token); this host's pairing was revoked or is unknown there",
    );
  });

  it('shows the lock-out after three wrong codes', async () => {
    const { app, page } = await session.start();
    await page.getByRole('tab', { name: 'Connections' }).click();
    const section = page.getByTestId('pairing');
    await section.getByRole('button', { name: 'Pair a remote agent' }).click();
    const code = (await section.getByTestId('pairing-code').textContent())?.trim() ?? '';
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    const remote = remoteSide();
    for (let i = 0; i < 3; i++) {
      const run = await difftray(
        ['pair', '--port', String(app.runtime.native.port), '--code', wrong],
        remote.env,
        remote.project,
      );
      expect(run.code).toBe(2);
    }
    await section
      .getByTestId('pairing-locked')
      .getByText(/Pairing locked for \d+ s after 3 wrong codes/)
      .waitFor();
  });
});
