/**
 * Attack: the system's inotify limit is reached, so folders inside a watched folder are not watched and
 * their changes are not seen. The window and `difftray status` must say which, why, and the fix, instead
 * of showing the folder as watched.
 *
 * The limit is reached for real: the built headless app runs in a user namespace of its own
 * (`unshare -U -r`) whose inotify limit (/proc/sys/user/max_inotify_watches, per user namespace since
 * Linux 5.11) is set low, so fs.watch fails with ENOSPC as it does at the system's limit, and nothing
 * outside the namespace is affected. Where user namespaces cannot be made, the test is skipped, saying so.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import WebSocket from 'ws';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AppSnapshot, HeadlessServerMessage } from '../../shared/app-api';
import { BUILD_TIMEOUT_MS, buildMain, DIFFTRAY_BIN } from '../support/build';
import { startHeadlessProcess, type HeadlessProcess } from '../support/headless-process';
import { until } from '../support/wait';

/** Watches the app may make in its namespace: fewer than the folders of the workspace. */
const WATCH_LIMIT = 4;
const SUBFOLDERS = 12;
const LAUNCHER = [
  'unshare',
  '-U',
  '-r',
  'sh',
  '-c',
  `echo ${WATCH_LIMIT} > /proc/sys/user/max_inotify_watches && exec "$0" "$@"`,
];

const probe = spawnSync(LAUNCHER[0]!, [...LAUNCHER.slice(1), 'true'], { encoding: 'utf8' });
const why =
  probe.status === 0
    ? undefined
    : `no user namespace with its own inotify limit here (${probe.error?.message ?? probe.stderr.trim()})`;
if (why) console.warn(`watch-inotify-limit skipped: ${why}`);

beforeAll(() => {
  if (!why) buildMain();
}, BUILD_TIMEOUT_MS);

let app: HeadlessProcess | undefined;
afterEach(async () => {
  await app?.stop();
  app = undefined;
});

/** The state the window gets: the snapshot asked over the headless UI's API socket. */
async function windowSnapshot(url: string): Promise<AppSnapshot> {
  const { port, searchParams } = new URL(url);
  const socket = new WebSocket(`ws://127.0.0.1:${port}/api?token=${searchParams.get('token')}`, {
    origin: `http://127.0.0.1:${port}`,
  });
  try {
    await new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });
    const answer = new Promise<HeadlessServerMessage>((resolve) =>
      socket.on('message', (data) => {
        const message = JSON.parse(data.toString()) as HeadlessServerMessage;
        if ('id' in message && message.id === 1) resolve(message);
      }),
    );
    socket.send(JSON.stringify({ id: 1, method: 'getSnapshot', params: {} }));
    const message = await answer;
    if (!('result' in message)) throw new Error(`getSnapshot failed: ${JSON.stringify(message)}`);
    return message.result as AppSnapshot;
  } finally {
    socket.terminate();
  }
}

function difftrayStatus(
  env: NodeJS.ProcessEnv,
  cwd: string,
): Promise<{ code: number | null; stdout: string }> {
  const child = spawn(process.execPath, [DIFFTRAY_BIN, 'status'], {
    cwd,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout })));
}

describe.skipIf(why !== undefined)('watch mode at the inotify limit', () => {
  it('folders fs.watch refused (ENOSPC) are shown unwatched with the sysctl that fixes it, in the window and in difftray status', async () => {
    app = await startHeadlessProcess('watch-inotify', {
      launcher: LAUNCHER,
      beforeStart: ({ workspace, home }) => {
        for (let i = 0; i < SUBFOLDERS; i++) mkdirSync(path.join(workspace, `sub${i}`));
        mkdirSync(path.join(home, '.difftray'), { recursive: true });
        writeFileSync(path.join(home, '.difftray', 'settings.json'), JSON.stringify({ watchFolders: ['.'] }));
      },
    });
    const { workspace } = app;
    const url = app.url;

    const snapshot = await until(async () => {
      const state = await windowSnapshot(url);
      return state.watchedFolders.length > 0 ? state : undefined;
    }, 'watch mode started');
    expect(snapshot.watchedFolders).toEqual([workspace]);
    const issue = snapshot.watchIssues?.find((found) => found.folder === workspace);
    expect(issue?.paused).toBeUndefined();
    const unwatched = issue?.unwatched;
    expect(unwatched).toMatchObject({ code: 'ENOSPC', reason: expect.stringMatching(/ENOSPC/) });
    expect(unwatched!.count).toBeGreaterThan(0);
    expect(unwatched!.count).toBeLessThanOrEqual(SUBFOLDERS + 1);
    expect(unwatched!.first.startsWith(workspace)).toBe(true);
    const [now, persist] = unwatched!.fix!.commands;
    expect(now).toMatch(/^sudo sysctl fs\.inotify\.max_user_watches=(\d+)$/);
    expect(Number(/=(\d+)$/.exec(now!)![1])).toBeGreaterThanOrEqual(524_288);
    expect(persist).toMatch(
      /^echo fs\.inotify\.max_user_watches=\d+ \| sudo tee \/etc\/sysctl\.d\/[\w.-]+\.conf$/,
    );

    const status = await difftrayStatus({ ...app.env }, workspace);
    expect(status.code).toBe(0);
    const lines = status.stdout.split('\n');
    expect(lines).toContain(`Watch mode: reviewing changes on disk in ${workspace}`);
    expect(lines).toContain(
      `  NOT WATCHED in ${workspace}: ${unwatched!.count} folder(s), their changes are not seen ` +
        `(first: ${unwatched!.first}: ${unwatched!.reason})`,
    );
    expect(lines).toContain(`      ${now}`);
    expect(lines).toContain(`      ${persist}`);
  });
});
