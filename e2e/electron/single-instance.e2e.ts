/**
 * One DiffTray per home, with the real Electron app (launched with Playwright's _electron) and real
 * second starts beside it: a second desktop start shows the first one's window and exits 0, a headless
 * start hands over to the desktop app (its window shown too), `--new-instance` is refused, and a desktop
 * start while a headless DiffTray runs has that one open its UI (in a stand-in for the person's
 * browser). Skipped, saying so, where no Electron binary exists.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { _electron as electron, type ElectronApplication } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { findElectronBinary } from '../../scripts/electron-binary.mjs';
import { APP_V8_FLAGS } from '../../scripts/node-flags.mjs';
import { makeTempDir } from '../../test/support/temp';
import { desktopSandboxEnv } from '../support/desktop-env';

const binary = findElectronBinary();
if (!binary) {
  console.warn('Electron binary not available on this machine: the single-instance suite is skipped.');
}

const ROOT = path.resolve(__dirname, '..', '..');
const HEADLESS = path.join(ROOT, 'dist', 'main', 'headless.cjs');

interface Sandbox {
  workspace: string;
  home: string;
  env: Record<string, string>;
  /** The addresses opened in "the person's browser" (a stand-in xdg-open first on PATH). */
  opened: () => string[];
}

let app: ElectronApplication | undefined;
let temp: { dir: string; cleanup: () => void } | undefined;
const children: Array<ReturnType<typeof spawn>> = [];

afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  await app?.close();
  app = undefined;
  temp?.cleanup();
});

function makeSandbox(): Sandbox {
  temp = makeTempDir('electron-single');
  const root = realpathSync(temp.dir);
  const workspace = path.join(root, 'workspace');
  const home = path.join(root, 'home');
  const bin = path.join(root, 'bin');
  for (const dir of [workspace, home, bin]) mkdirSync(dir, { recursive: true });
  const log = path.join(root, 'opened.txt');
  writeFileSync(path.join(bin, 'xdg-open'), `#!/bin/sh\nprintf '%s\\n' "$1" >> '${log}'\n`, { mode: 0o700 });
  return {
    workspace,
    home,
    env: desktopSandboxEnv(home, {
      PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}`,
      BROWSER: path.join(bin, 'xdg-open'),
    }),
    opened: () => (existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : []),
  };
}

/** Runs a start to its end: its exit code and all it printed. */
function run(
  sandbox: Sandbox,
  command: string,
  args: string[],
): Promise<{ code: number | null; output: string }> {
  const child = spawn(command, args, { cwd: ROOT, env: sandbox.env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, output })));
}

const desktopStart = (sandbox: Sandbox, extra: string[] = []) =>
  run(sandbox, binary!, ['dist/main/main.cjs', '--workspace', sandbox.workspace, ...extra]);

/** Where lock and discovery files go, under HOME (TMPDIR is there too; Electron's own files are not). */
const LOCK_PLACES = [
  '.claude',
  '.openclaude',
  '.nexus3',
  '.qwen',
  '.copilot',
  '.clio',
  '.difftray',
  'gemini',
];

/** The lock and discovery files, with the instance record. */
function filesIn(home: string): string[] {
  return readdirSync(home, { recursive: true, encoding: 'utf8' })
    .filter((file) => LOCK_PLACES.includes(file.split(path.sep)[0]!))
    .sort();
}

async function launchDesktop(sandbox: Sandbox): Promise<ElectronApplication> {
  app = await electron.launch({
    executablePath: binary!,
    args: ['dist/main/main.cjs', '--workspace', sandbox.workspace],
    cwd: ROOT,
    env: sandbox.env,
  });
  await app.firstWindow();
  // Serving: its record says where.
  await expect
    .poll(() => {
      const file = path.join(sandbox.home, '.difftray', 'instance.json');
      return existsSync(file) && 'port' in (JSON.parse(readFileSync(file, 'utf8')) as object);
    })
    .toBe(true);
  return app;
}

const windowVisible = (desktop: ElectronApplication) =>
  desktop.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows().some((w) => w.isVisible()));

describe.skipIf(!binary)('one DiffTray per home, with the desktop app', () => {
  it('a second desktop start shows the first one’s window and exits 0; --new-instance is refused', async () => {
    const sandbox = makeSandbox();
    const desktop = await launchDesktop(sandbox);
    await desktop.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows().forEach((w) => w.hide()));
    expect(await windowVisible(desktop)).toBe(false);
    const before = filesIn(sandbox.home);

    const refused = await desktopStart(sandbox, ['--new-instance']);
    expect(refused.code, refused.output).toBe(1);
    expect(refused.output).toContain('--new-instance refused');
    expect(await windowVisible(desktop)).toBe(false);

    const second = await desktopStart(sandbox);
    expect(second.code, second.output).toBe(0);
    expect(second.output).toContain('its window is shown');
    await expect.poll(() => windowVisible(desktop)).toBe(true);
    expect(filesIn(sandbox.home)).toEqual(before);
  });

  it('a headless start hands over to the desktop app: its window is shown, nothing of its own written', async () => {
    const sandbox = makeSandbox();
    const desktop = await launchDesktop(sandbox);
    await desktop.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows().forEach((w) => w.hide()));
    const before = filesIn(sandbox.home);
    const pid = await desktop.evaluate(() => process.pid);
    const headless = await run(sandbox, process.execPath, [
      ...APP_V8_FLAGS,
      HEADLESS,
      '--workspace',
      sandbox.workspace,
    ]);
    expect(headless.code, headless.output).toBe(0);
    expect(headless.output).toContain(`DiffTray (the desktop app, pid ${pid}`);
    expect(headless.output).toContain('Its window is shown.');
    expect(headless.output).not.toContain('Open the UI');
    await expect.poll(() => windowVisible(desktop)).toBe(true);
    expect(filesIn(sandbox.home)).toEqual(before);
  });

  it('a desktop start while a headless DiffTray runs has it open its UI, and exits 0', async () => {
    const sandbox = makeSandbox();
    const first = spawn(process.execPath, [...APP_V8_FLAGS, HEADLESS, '--workspace', sandbox.workspace], {
      cwd: ROOT,
      env: sandbox.env,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    children.push(first);
    let printed = '';
    const url = await new Promise<string>((resolve, reject) => {
      first.stdout.on('data', (chunk: Buffer) => {
        printed += chunk.toString();
        const match = /Open the UI: (\S+)/.exec(printed);
        if (match) resolve(match[1]!);
      });
      first.once('exit', (code) => reject(new Error(`headless exited with ${code}: ${printed}`)));
    });
    const second = await desktopStart(sandbox);
    expect(second.code, second.output).toBe(0);
    expect(second.output).toContain(
      `Its UI, http://127.0.0.1:${new URL(url).port}/, is opened in your browser`,
    );
    expect(second.output).not.toContain(url);
    await expect.poll(sandbox.opened).toEqual([url]);
  });
});
