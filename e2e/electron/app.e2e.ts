/**
 * The Electron shell, launched for real with Playwright's _electron. Where no Electron binary exists
 * (its download is impossible on some machines, this project's CI among them) the suite is skipped
 * and says so; it never pretends.
 */
import { mkdirSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { _electron as electron, type ElectronApplication } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findElectronBinary } from '../../scripts/electron-binary.mjs';
import { connectClaudeClient, texts } from '../../test/support/claude-client';
import { makeTempDir } from '../../test/support/temp';
import { desktopSandboxEnv } from '../support/desktop-env';

const binary = findElectronBinary();
if (!binary) {
  console.warn('Electron binary not available on this machine: the Electron suite is skipped.');
}

describe.skipIf(!binary)('Electron shell', () => {
  let app: ElectronApplication;
  let temp: { dir: string; cleanup: () => void };
  let workspace: string;
  let home: string;

  beforeAll(async () => {
    temp = makeTempDir('electron');
    const root = realpathSync(temp.dir);
    workspace = path.join(root, 'workspace');
    home = path.join(root, 'home');
    mkdirSync(workspace, { recursive: true });
    mkdirSync(home, { recursive: true });
    app = await electron.launch({
      executablePath: binary!,
      args: ['dist/main/main.cjs', '--workspace', workspace],
      // Every discovery file in the temp home: Claude's, OpenClaude's, NEXUS3's, Qwen's, Clio's, DiffTray's and (via TMPDIR) Gemini's.
      env: desktopSandboxEnv(home),
    });
  });

  afterAll(async () => {
    await app?.close();
    temp?.cleanup();
  });

  it('opens one secure window served from the difftray:// protocol', async () => {
    const window = await app.firstWindow();
    expect(window.url()).toBe('difftray://app/index.html');
    // Sandboxed, isolated, no Node: the page sees neither require nor process, only the carrier.
    const page = await window.evaluate(() => ({
      require: typeof (globalThis as { require?: unknown }).require,
      process: typeof (globalThis as { process?: unknown }).process,
      carrier: Object.keys((globalThis as unknown as Record<string, object>)['difftrayCarrier'] ?? {}).sort(),
    }));
    expect(page).toEqual({ require: 'undefined', process: 'undefined', carrier: ['call', 'onState'] });
  });

  it('reviews an openDiff from Claude Code through the window', async () => {
    const window = await app.firstWindow();
    const lockDir = path.join(home, '.claude', 'ide');
    const lockName = readdirSync(lockDir).find((name) => name.endsWith('.lock'))!;
    const lock = JSON.parse(readFileSync(path.join(lockDir, lockName), 'utf8')) as { authToken: string };
    const claude = await connectClaudeClient(Number(path.basename(lockName, '.lock')), lock.authToken);
    const file = path.join(workspace, 'a.txt');
    writeFileSync(file, 'one\ntwo\nthree\n');
    const answer = claude.callTool('openDiff', {
      old_file_path: file,
      new_file_path: file,
      new_file_contents: 'ONE\ntwo\nthree\n',
      tab_name: 'a.txt',
    });
    await window.getByRole('button', { name: 'Accept hunk 1' }).click();
    await window.getByRole('button', { name: /^Submit/ }).click();
    expect(texts(await answer)).toEqual(['FILE_SAVED', 'ONE\ntwo\nthree\n']);
    await claude.close();
  });

  it('hides to the tray when the window is closed, and keeps running', async () => {
    const visible = await app.evaluate(({ BrowserWindow }) => {
      const window = BrowserWindow.getAllWindows()[0]!;
      window.close();
      return window.isVisible();
    });
    expect(visible).toBe(false);
    expect(await app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows().length)).toBe(1);
  });
});
