/**
 * Workspace folders changed while DiffTray runs (Settings' Add and Remove): every lock and discovery
 * file says the new folders at once, a client proposing in a new folder is reviewed (and refused
 * again once it is removed), and what cannot be a workspace folder is refused with the reason.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { connectClaudeClient, texts } from '../support/claude-client';
import { NUMBERS } from '../support/fixtures';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime';
import { until, waitForReview } from '../support/wait';

let t: TestRuntime | undefined;

afterEach(async () => {
  await t?.close();
  t = undefined;
});

const readJson = (file: string) => JSON.parse(readFileSync(file, 'utf8'));

/** What each client reads as DiffTray's workspace folders, from the files it reads. */
function foldersInEveryFile(rt: TestRuntime): Record<string, unknown> {
  const port = rt.runtime.bridge.port;
  const copilotDir = path.join(rt.home, '.copilot', 'ide');
  const [copilotLock] = readdirSync(copilotDir).filter((name) => name.endsWith('.lock'));
  const geminiFile = rt.runtime.bridge
    .discoveryFilePaths()
    .find((file) => file.includes('gemini-ide-server'))!;
  const difftrayHome = path.join(rt.home, '.difftray');
  return {
    claude: readJson(path.join(rt.claudeLockDir, `${port}.lock`)).workspaceFolders,
    openClaude: readJson(path.join(rt.openClaudeLockDir, `${port}.lock`)).workspaceFolders,
    nexus3: readJson(path.join(rt.nexusLockDir, `${port}.lock`)).workspaceFolders,
    gemini: readJson(geminiFile).workspacePath.split(path.delimiter),
    qwen: readJson(path.join(rt.qwenLockDir, `${port}.lock`)).workspacePath.split(path.delimiter),
    copilot: readJson(path.join(copilotDir, copilotLock!)).workspaceFolders,
    clio: readJson(rt.clioBridgeFile).workspaceFolders,
    native: readJson(path.join(difftrayHome, `${rt.runtime.native.port}.lock`)).workspaceFolders,
  };
}

function everyFileSays(folders: string[]): Record<string, unknown> {
  const names = ['claude', 'openClaude', 'nexus3', 'gemini', 'qwen', 'copilot', 'clio', 'native'];
  return Object.fromEntries(names.map((name) => [name, folders]));
}

function makeFolder(rt: TestRuntime, name: string): string {
  const folder = path.join(path.dirname(rt.workspace), name);
  mkdirSync(folder, { recursive: true });
  return folder;
}

const settingsFile = (rt: TestRuntime) => path.join(rt.home, '.difftray', 'settings.json');

describe('workspace folders changed in the app', () => {
  it('rewrites every lock and discovery file at once, and remembers the folder in settings.json', async () => {
    t = await startTestRuntime();
    const added = makeFolder(t, 'second-project');
    expect(foldersInEveryFile(t)).toEqual(everyFileSays([t.workspace]));

    expect(await t.runtime.handler('addWorkspaceFolder', { folder: added })).toEqual([t.workspace, added]);
    expect(foldersInEveryFile(t)).toEqual(everyFileSays([t.workspace, added]));
    expect(readJson(settingsFile(t)).workspaceFolders).toEqual([added]);
    expect(t.runtime.core.snapshot().workspaceFolders).toEqual([t.workspace, added]);

    expect(await t.runtime.handler('removeWorkspaceFolder', { folder: t.workspace })).toEqual([added]);
    expect(foldersInEveryFile(t)).toEqual(everyFileSays([added]));
    // The folder came from the command line, not settings.json: the file is left as it was.
    expect(readJson(settingsFile(t)).workspaceFolders).toEqual([added]);

    await t.restart();
    expect(t.runtime.core.workspaceFolders).toEqual([t.workspace, added]);
  });

  it('reviews a proposal from a client in the added folder, and refuses it again once removed', async () => {
    t = await startTestRuntime();
    const added = makeFolder(t, 'new-folder');
    const file = path.join(added, 'numbers.txt');
    writeFileSync(file, NUMBERS.base);
    const port = t.runtime.bridge.port;
    const lock = readJson(path.join(t.claudeLockDir, `${port}.lock`));
    const client = await connectClaudeClient(port, lock.authToken);
    try {
      const before = await client.openDiff(file, NUMBERS.proposed, 'before');
      expect(before.isError).toBe(true);
      expect(texts(before).join('\n')).toMatch(/outside the workspace/);

      await t.runtime.handler('addWorkspaceFolder', { folder: added });
      const answer = client.openDiff(file, NUMBERS.proposed, 'after');
      const review = await waitForReview(t.runtime.core, (r) => r.state === 'pending');
      expect(review.files[0]?.path).toBe(file);

      // Removing the folder cancels the review waiting there: nothing may be written in it any more.
      await t.runtime.handler('removeWorkspaceFolder', { folder: added });
      expect(texts(await answer).join('\n')).toMatch(/reject/i);
      expect(t.runtime.core.snapshot().reviews.find((r) => r.id === review.id)?.state).toBe('cancelled');
      expect(readFileSync(file, 'utf8')).toBe(NUMBERS.base);
    } finally {
      await client.close();
    }
  });

  it('refuses the root, a system folder, a file, a missing folder and a relative path, with the reason', async () => {
    t = await startTestRuntime();
    const aFile = path.join(t.workspace, 'a.txt');
    writeFileSync(aFile, 'x');
    const refusals: Array<[string, RegExp]> = [
      ['/', /root of the disk/],
      ['/etc', /system folder/],
      [aFile, /is not a folder/],
      [path.join(t.workspace, 'missing'), /does not exist/],
      ['relative/path', /not a full path/],
      [path.join(t.workspace, 'inner'), /does not exist/],
    ];
    mkdirSync(path.join(t.workspace, 'nested'));
    refusals.push([path.join(t.workspace, 'nested'), /already in the workspace, inside/]);
    // A FIFO is looked at, never opened (nothing waits on it); a link is judged by what it points to.
    const fifo = path.join(path.dirname(t.workspace), 'pipe');
    execFileSync('mkfifo', [fifo]);
    const linkToFile = path.join(path.dirname(t.workspace), 'link-to-file');
    symlinkSync(aFile, linkToFile);
    refusals.push([fifo, /is not a folder/], [linkToFile, /is not a folder/]);
    for (const [folder, reason] of refusals) {
      await expect(t.runtime.handler('addWorkspaceFolder', { folder }), folder).rejects.toThrow(reason);
    }
    await expect(t.runtime.handler('removeWorkspaceFolder', { folder: '/nowhere' })).rejects.toThrow(
      /not a workspace folder/,
    );
    expect(t.runtime.core.workspaceFolders).toEqual([t.workspace]);
  });

  it('keeps the real folder when added through a link: swapping the link later opens nothing else', async () => {
    t = await startTestRuntime();
    const real = makeFolder(t, 'real');
    const other = makeFolder(t, 'other');
    const link = path.join(path.dirname(t.workspace), 'link');
    symlinkSync(real, link);
    expect(await t.runtime.handler('addWorkspaceFolder', { folder: link })).toEqual([t.workspace, real]);
    renameSync(link, `${link}.old`);
    symlinkSync(other, link);
    writeFileSync(path.join(other, 'secret.txt'), 'secret');
    const port = t.runtime.bridge.port;
    const client = await connectClaudeClient(
      port,
      readJson(path.join(t.claudeLockDir, `${port}.lock`)).authToken,
    );
    try {
      const answer = await client.openDiff(path.join(link, 'secret.txt'), 'changed', 'through the link');
      expect(answer.isError).toBe(true);
      expect(texts(answer).join('\n')).toMatch(/outside the workspace/);
      expect(readFileSync(path.join(other, 'secret.txt'), 'utf8')).toBe('secret');
    } finally {
      await client.close();
    }
  });

  it('refuses the change when settings.json is broken, leaving the file byte for byte', async () => {
    t = await startTestRuntime({
      beforeStart: (home) => {
        mkdirSync(path.join(home, '.difftray'), { recursive: true });
        writeFileSync(path.join(home, '.difftray', 'settings.json'), '{ "workspaceFolders": [ broken');
      },
    });
    const added = makeFolder(t, 'wanted');
    await expect(t.runtime.handler('addWorkspaceFolder', { folder: added })).rejects.toThrow(
      /cannot be saved/,
    );
    expect(readFileSync(settingsFile(t), 'utf8')).toBe('{ "workspaceFolders": [ broken');
    expect(t.runtime.core.workspaceFolders).toEqual([t.workspace]);
  });

  it('follows settings.json edited by hand: a folder put in joins, one taken out leaves, / is refused', async () => {
    const logs: string[] = [];
    t = await startTestRuntime({ log: (message) => logs.push(message) });
    const added = makeFolder(t, 'by-hand');
    const claudeLock = () => readJson(path.join(t!.claudeLockDir, `${t!.runtime.bridge.port}.lock`));
    const lockLists = async (folders: string[], what: string) =>
      until(
        () => (JSON.stringify(claudeLock().workspaceFolders) === JSON.stringify(folders) ? true : undefined),
        what,
      );

    writeFileSync(settingsFile(t), JSON.stringify({ workspaceFolders: [added, '/'] }));
    await lockLists([t.workspace, added], 'the folder written by hand in the lock file');
    expect(t.runtime.core.workspaceFolders).toEqual([t.workspace, added]);
    expect(logs.join('\n')).toMatch(
      /settings\.json: \/ is not taken as a workspace folder: .*root of the disk/,
    );

    writeFileSync(settingsFile(t), JSON.stringify({ workspaceFolders: [] }));
    await lockLists([t.workspace], 'the folder taken out by hand gone from the lock file');

    // A broken file empties nothing.
    writeFileSync(settingsFile(t), '{ "workspaceFolders": [');
    await until(() => t!.runtime.core.snapshot().settingsFile?.problem, 'the broken file reported');
    expect(t.runtime.core.workspaceFolders).toEqual([t.workspace]);
  });

  it('stops watching a watched folder that leaves the workspace', async () => {
    t = await startTestRuntime({ watchQuietMs: 50 });
    const added = makeFolder(t, 'watched');
    await t.runtime.handler('addWorkspaceFolder', { folder: added });
    expect(await t.runtime.handler('setFolderWatched', { folder: added, watched: true })).toEqual([added]);
    await t.runtime.handler('removeWorkspaceFolder', { folder: added });
    await until(
      () => t!.runtime.core.snapshot().watchedFolders.length === 0,
      'watch mode to let the folder go',
    );
    writeFileSync(path.join(added, 'new.txt'), 'not reviewed');
    await t.runtime.watch.settled();
    expect(t.runtime.core.snapshot().reviews).toEqual([]);
  });

  it('writes and removes the lock file of extraLockFolders as the setting is changed in the app', async () => {
    t = await startTestRuntime();
    const extra = path.join(t.home, '.fork', 'ide');
    const lockFile = path.join(extra, `${t.runtime.bridge.port}.lock`);
    await t.runtime.handler('updateSettings', { extraLockFolders: [extra] });
    expect(readJson(lockFile).workspaceFolders).toEqual([t.workspace]);
    const added = makeFolder(t, 'more');
    await t.runtime.handler('addWorkspaceFolder', { folder: added });
    expect(readJson(lockFile).workspaceFolders).toEqual([t.workspace, added]);
    await t.runtime.handler('updateSettings', { extraLockFolders: [] });
    expect(() => readFileSync(lockFile)).toThrow(/ENOENT/);
  });
});
