/**
 * `npm start` as a person runs it (after the build): on a machine without an Electron binary it says
 * so in one line and starts headless, printing the address of the UI; lock files come and go with it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findElectronBinary } from '../scripts/electron-binary.mjs';
import { makeTempDir } from '../test/support/temp';

let child: ChildProcess | undefined;
let temp: { dir: string; cleanup: () => void } | undefined;

afterEach(() => {
  child?.kill('SIGKILL');
  temp?.cleanup();
});

function waitForLine(process: ChildProcess, pattern: RegExp, output: string[]): Promise<RegExpMatchArray> {
  return new Promise((resolve, reject) => {
    let buffer = '';
    process.stdout!.setEncoding('utf8');
    process.stdout!.on('data', (chunk: string) => {
      buffer += chunk;
      output.push(chunk);
      const match = buffer.match(pattern);
      if (match) resolve(match);
    });
    process.once('exit', (code) => reject(new Error(`exited with ${code}: ${buffer}`)));
  });
}

describe('npm start', () => {
  it('starts headless with --headless, prints the UI address, and removes its lock files on exit', async () => {
    temp = makeTempDir('start');
    const root = realpathSync(temp.dir);
    const workspace = path.join(root, 'ws');
    const home = path.join(root, 'home');
    mkdirSync(workspace);
    mkdirSync(home);
    const args = ['scripts/start.mjs', '--workspace', workspace];
    if (findElectronBinary()) args.push('--headless');
    child = spawn(process.execPath, args, {
      env: {
        ...process.env,
        HOME: home,
        // Gemini CLI's discovery folder is under the temp folder: keep it in ours.
        TMPDIR: home,
        CLAUDE_CONFIG_DIR: '',
        OPENCLAUDE_CONFIG_DIR: '',
        QWEN_HOME: '',
        COPILOT_HOME: '',
        DIFFTRAY_HOME: '',
        DIFFTRAY_NO_ELECTRON_DOWNLOAD: '1',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const output: string[] = [];
    const [, url] = await waitForLine(
      child,
      /Open the UI: (http:\/\/127\.0\.0\.1:\d+\/\?token=[0-9a-f]+)/,
      output,
    );
    if (!findElectronBinary()) {
      expect(output.join('').split('\n')[0]).toBe(
        'Electron binary not available on this machine; starting DiffTray headless instead.',
      );
    }
    expect(output.join('')).toContain(`Workspace: ${workspace}`);

    const page = await fetch(url!);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root">');

    const lockDir = path.join(home, '.claude', 'ide');
    expect(readdirSync(lockDir).filter((name) => name.endsWith('.lock'))).toHaveLength(1);

    const exited = new Promise((resolve) => child!.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
    expect(readdirSync(lockDir).filter((name) => name.endsWith('.lock'))).toEqual([]);
    expect(existsSync(path.join(home, '.nexus3', 'ide'))).toBe(true);
  });
});
