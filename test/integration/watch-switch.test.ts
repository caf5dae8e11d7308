/**
 * Watch mode turned on and off while the app runs, through the app API the window's switch calls: what
 * the windows are told, what is reviewed, what is remembered in settings.json for the next start.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { typedCall, type AppChange, type ReviewSummary } from '../../shared/app-api';
import { testClient } from '../support/clients';
import { makeTempDir } from '../support/temp';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime';
import { until, waitForReview } from '../support/wait';

let t: TestRuntime | undefined;
const cleanups: Array<() => void> = [];
afterEach(async () => {
  await t?.close();
  t = undefined;
  for (const cleanup of cleanups.splice(0)) cleanup();
});

/** A runtime with nothing watched; `settings` is written first when given. */
async function start(settings?: unknown, logged: string[] = []): Promise<TestRuntime> {
  t = await startTestRuntime({
    watchQuietMs: 100,
    log: (line) => logged.push(line),
    beforeStart: (home) => {
      if (settings === undefined) return;
      mkdirSync(path.join(home, '.difftray'), { recursive: true });
      writeFileSync(settingsFile(home), typeof settings === 'string' ? settings : JSON.stringify(settings));
    },
  });
  return t;
}

const settingsFile = (home: string) => path.join(home, '.difftray', 'settings.json');
const remembered = (rt: TestRuntime) =>
  (JSON.parse(readFileSync(settingsFile(rt.home), 'utf8')) as { watchFolders?: unknown }).watchFolders;
const setWatched = (rt: TestRuntime, folder: string, watched: boolean) =>
  typedCall((method, params) => rt.runtime.handler(method, params))('setFolderWatched', { folder, watched });
const isWatchReview = (review: ReviewSummary) => review.client.protocol === 'watch';
const watchReviews = (rt: TestRuntime) => rt.runtime.core.queue.summaries().filter(isWatchReview);

describe('turning watch mode on and off', () => {
  it('tells the windows, reviews what is written, and remembers the folder', async () => {
    const rt = await start();
    const changes: AppChange[] = [];
    const subscription = rt.runtime.core.subscribe((change) => changes.push(change));
    expect(rt.runtime.core.snapshot().watchedFolders).toEqual([]);

    expect(await setWatched(rt, rt.workspace, true)).toEqual([rt.workspace]);
    await until(() => changes.find((change) => change.watchedFolders), 'the change');
    expect(changes.find((change) => change.watchedFolders)?.watchedFolders).toEqual([rt.workspace]);
    expect(rt.runtime.core.snapshot().watchedFolders).toEqual([rt.workspace]);
    expect(rt.runtime.core.snapshot().clients.map((client) => client.name)).toContain('Changes on disk');
    expect(remembered(rt)).toEqual([rt.workspace]);

    writeFileSync(path.join(rt.workspace, 'a.txt'), 'written by an agent\n');
    const review = await waitForReview(rt.runtime.core, isWatchReview);
    expect(review.title).toBe('Changes on disk: a.txt');
    subscription.close();
  });

  it('turned off, its pending review is cancelled, the file is left as written, and nothing more is reviewed', async () => {
    const rt = await start();
    await setWatched(rt, rt.workspace, true);
    const a = path.join(rt.workspace, 'a.txt');
    writeFileSync(a, 'first\n');
    const review = await waitForReview(rt.runtime.core, isWatchReview);

    expect(await setWatched(rt, rt.workspace, false)).toEqual([]);
    expect(rt.runtime.core.queue.summary(review.id).state).toBe('cancelled');
    expect(readFileSync(a, 'utf8')).toBe('first\n');
    expect(rt.runtime.core.snapshot().watchedFolders).toEqual([]);
    expect(rt.runtime.core.clients.list().map((client) => client.name)).not.toContain('Changes on disk');
    expect(remembered(rt)).toEqual([]);

    writeFileSync(path.join(rt.workspace, 'b.txt'), 'second\n');
    // Turned on again for a canary folder: what is seen there is seen; b.txt was never watched.
    const canary = path.join(rt.workspace, 'canary');
    mkdirSync(canary);
    await setWatched(rt, canary, true);
    writeFileSync(path.join(canary, 'c.txt'), 'canary\n');
    const next = await waitForReview(rt.runtime.core, (r) => isWatchReview(r) && r.state === 'pending');
    expect(next.files.map((file) => path.relative(rt.workspace, file.path))).toEqual([
      path.join('canary', 'c.txt'),
    ]);
  });

  it('a folder inside a watched one is already watched; one around watched ones takes their place', async () => {
    const rt = await start();
    const sub = path.join(rt.workspace, 'sub');
    const other = path.join(rt.workspace, 'other');
    mkdirSync(sub);
    mkdirSync(other);
    expect(await setWatched(rt, sub, true)).toEqual([sub]);
    expect(await setWatched(rt, other, true)).toEqual([other, sub]);
    expect(await setWatched(rt, rt.workspace, true)).toEqual([rt.workspace]);
    expect(await setWatched(rt, sub, true)).toEqual([rt.workspace]);
    await expect(setWatched(rt, sub, false)).rejects.toThrow(
      `${sub} is watched as part of ${rt.workspace}: turn that folder off instead`,
    );
    expect(remembered(rt)).toEqual([rt.workspace]);
  });

  it('refuses a folder outside the workspace, a link that leads out, a file, and a missing folder', async () => {
    const rt = await start();
    const outside = makeTempDir('outside');
    cleanups.push(outside.cleanup);
    symlinkSync(outside.dir, path.join(rt.workspace, 'link-out'));
    writeFileSync(path.join(rt.workspace, 'file.txt'), 'x\n');
    await expect(setWatched(rt, outside.dir, true)).rejects.toThrow(/is outside the workspace folders/);
    await expect(setWatched(rt, path.join(rt.workspace, '..'), true)).rejects.toThrow(
      /outside the workspace/,
    );
    await expect(setWatched(rt, path.join(rt.workspace, 'link-out'), true)).rejects.toThrow(
      /is outside the workspace folders/,
    );
    await expect(setWatched(rt, path.join(rt.workspace, 'file.txt'), true)).rejects.toThrow(
      /is not a folder/,
    );
    await expect(setWatched(rt, path.join(rt.workspace, 'missing'), true)).rejects.toThrow(/is not a folder/);
    await expect(rt.runtime.handler('setFolderWatched', { folder: 7, watched: true })).rejects.toThrow(
      /Invalid parameters for setFolderWatched/,
    );
    expect(rt.runtime.core.snapshot().watchedFolders).toEqual([]);
    expect(existsSync(settingsFile(rt.home))).toBe(false);
  });

  it("the person's Disconnect in Connections turns every folder off, and that is remembered", async () => {
    const rt = await start();
    await setWatched(rt, rt.workspace, true);
    const client = rt.runtime.core.clients.list().find((candidate) => candidate.protocol === 'watch')!;
    await rt.runtime.handler('disconnectClient', { clientId: client.id });
    await until(() => (rt.runtime.watch.watchedFolders.length === 0 ? true : undefined), 'off');
    await until(() => (rt.runtime.core.snapshot().watchedFolders.length === 0 ? true : undefined), 'told');
    expect(remembered(rt)).toEqual([]);
  });

  it('what is remembered is watched at the next start; entries for folders of other runs are kept', async () => {
    const elsewhere = makeTempDir('elsewhere');
    cleanups.push(elsewhere.cleanup);
    const rt = await start({ autoApply: ['Clio'], watchFolders: [elsewhere.dir] });
    await setWatched(rt, rt.workspace, true);
    const written = JSON.parse(readFileSync(settingsFile(rt.home), 'utf8')) as Record<string, unknown>;
    expect(written).toEqual({ autoApply: ['Clio'], watchFolders: [elsewhere.dir, rt.workspace] });

    const { home, workspace } = rt;
    await rt.runtime.close();
    // The same home and workspace, started again.
    const again = await import('../../src-main/runtime').then(({ startRuntime }) =>
      startRuntime({
        workspaces: [workspace],
        env: { DIFFTRAY_HOME: path.join(home, '.difftray'), CLAUDE_CONFIG_DIR: path.join(home, '.claude') },
        endpoints: [],
        home,
        copilotLockDir: path.join(home, '.copilot', 'ide'),
        log: () => {},
      }),
    );
    try {
      expect(again.watch.watchedFolders).toEqual([workspace]);
      expect(again.core.snapshot().watchedFolders).toEqual([workspace]);
    } finally {
      await again.close();
    }
  });

  it('a settings file that is not JSON is left as it is; the switch still works for this run', async () => {
    const logged: string[] = [];
    const rt = await start('{ "watchFolders": [ // a comment\n', logged);
    expect(await setWatched(rt, rt.workspace, true)).toEqual([rt.workspace]);
    expect(readFileSync(settingsFile(rt.home), 'utf8')).toBe('{ "watchFolders": [ // a comment\n');
    expect(logged.join('\n')).toMatch(/not remembered for the next start: .*is not valid JSON/);
  });

  it("a deletion accepted through another client's review is not reviewed again when the agent deletes the file", async () => {
    const rt = await start();
    const gone = path.join(rt.workspace, 'gone.txt');
    writeFileSync(gone, 'to be deleted\n');
    await setWatched(rt, rt.workspace, true);
    const { id } = rt.runtime.core.queue.add({
      client: testClient({ name: 'Agent' }),
      title: 'delete gone.txt',
      files: [
        { path: gone, base: { exists: true, kind: 'text', text: 'to be deleted\n' }, proposedText: '' },
      ],
    });
    await rt.runtime.handler('submit', { reviewId: id });
    // The agent deletes it itself, then writes a canary.
    unlinkSync(gone);
    writeFileSync(path.join(rt.workspace, 'canary.txt'), 'canary\n');
    const review = await waitForReview(rt.runtime.core, isWatchReview);
    expect(review.files.map((file) => path.basename(file.path))).toEqual(['canary.txt']);
    expect(watchReviews(rt)).toHaveLength(1);
    rmSync(path.join(rt.workspace, 'canary.txt'));
  });
});
