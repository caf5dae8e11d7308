/**
 * `difftray watch` (the built command) against the real runtime, through its own native endpoint: what
 * the app then watches, what settings.json remembers, and which writes become "Changes on disk" reviews.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ReviewSummary } from '../../shared/app-api';
import { WATCH_MAX_FILES_PER_REVIEW } from '../../shared/limits';
import { BUILD_TIMEOUT_MS, buildMain, DIFFTRAY_BIN } from '../support/build';
import { sandboxEnv } from '../support/headless-process';
import { makeTempDir } from '../support/temp';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime';
import { until, waitForReview } from '../support/wait';

beforeAll(buildMain, BUILD_TIMEOUT_MS);

let t: TestRuntime | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

async function app(): Promise<TestRuntime> {
  t = await startTestRuntime({ watchQuietMs: 150 });
  return t;
}

/** The command as the person runs it: the app's HOME and DIFFTRAY_HOME, from `cwd`. */
function difftray(
  rt: { home: string; tmpDir: string },
  args: string[],
  cwd: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env = { ...sandboxEnv(rt.home, rt.tmpDir), DIFFTRAY_HOME: path.join(rt.home, '.difftray') };
  const child = spawn(process.execPath, [DIFFTRAY_BIN, ...args], {
    cwd,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

const watched = (rt: TestRuntime) => rt.runtime.core.snapshot().watchedFolders;
const remembered = (rt: TestRuntime) =>
  (
    JSON.parse(readFileSync(path.join(rt.home, '.difftray', 'settings.json'), 'utf8')) as {
      watchFolders: unknown;
    }
  ).watchFolders;
const isWatchReview = (review: ReviewSummary) => review.client.name === 'Changes on disk';
const reviewOf = (rt: TestRuntime, file: string) =>
  waitForReview(rt.runtime.core, (r) => isWatchReview(r) && r.files.some((f) => f.path === file));
const ok = (line: string) => ({ code: 0, stdout: `${line}\n`, stderr: '' });
const failed = (line: string) => ({ code: 2, stdout: '', stderr: `difftray: ${line}\n` });

describe('difftray watch', () => {
  it('turns watch mode on for the current folder (reviewed, remembered) and --off turns it off', async () => {
    const rt = await app();
    const ws = rt.workspace;
    expect(await difftray(rt, ['watch'], ws)).toEqual(
      ok(`Reviewing changes on disk in ${ws} (turn off: difftray watch --off ${ws})`),
    );
    expect(watched(rt)).toEqual([ws]);
    expect(remembered(rt)).toEqual([ws]);
    const status = await difftray(rt, ['status'], ws);
    expect(status.stdout.split('\n')).toContain(`Watch mode: reviewing changes on disk in ${ws}`);

    writeFileSync(path.join(ws, 'written.txt'), 'by an agent\n');
    const review = await reviewOf(rt, path.join(ws, 'written.txt'));
    expect(review).toMatchObject({ state: 'pending', title: 'Changes on disk: written.txt' });

    expect(await difftray(rt, ['watch', '--off'], ws)).toEqual(
      ok(`Stopped reviewing changes on disk in ${ws}`),
    );
    expect(watched(rt)).toEqual([]);
    expect(remembered(rt)).toEqual([]);
    expect(rt.runtime.core.queue.summary(review.id).state).toBe('cancelled');
    expect((await difftray(rt, ['status'], ws)).stdout.split('\n')).toContain(
      'Watch mode: off (difftray watch turns it on for a folder)',
    );

    // A write after turning off is not reviewed; a folder watched afterwards shows time went by.
    mkdirSync(path.join(ws, 'other'));
    writeFileSync(path.join(ws, 'later.txt'), 'not reviewed\n');
    expect((await difftray(rt, ['watch', 'other'], ws)).code).toBe(0);
    writeFileSync(path.join(ws, 'other', 'canary.txt'), 'reviewed\n');
    await reviewOf(rt, path.join(ws, 'other', 'canary.txt'));
    const paths = rt.runtime.core.queue.summaries().flatMap((r) => r.files.map((f) => f.path));
    expect(paths).not.toContain(path.join(ws, 'later.txt'));
  });

  it('a folder inside a watched one is already watched; turning off the inner one is refused', async () => {
    const rt = await app();
    const ws = rt.workspace;
    const sub = path.join(ws, 'sub dir');
    mkdirSync(sub);
    expect(await difftray(rt, ['watch', 'sub dir'], ws)).toEqual(
      ok(`Reviewing changes on disk in ${sub} (turn off: difftray watch --off '${sub}')`),
    );
    // The workspace takes the subfolder's place.
    expect((await difftray(rt, ['watch', '..'], sub)).code).toBe(0);
    expect(watched(rt)).toEqual([ws]);
    expect(await difftray(rt, ['watch'], sub)).toEqual(
      ok(
        `Already reviewing changes on disk in ${sub}, as part of ${ws} (turn off: difftray watch --off ${ws})`,
      ),
    );
    expect(await difftray(rt, ['watch', '--off', sub], ws)).toEqual(
      failed(`${sub} is watched as part of ${ws}: turn that folder off instead`),
    );
    expect(watched(rt)).toEqual([ws]);
  });

  it(`status says a paused folder, why, and how to resume; difftray watch resumes it`, async () => {
    const rt = await app();
    const ws = rt.workspace;
    expect((await difftray(rt, ['watch'], ws)).code).toBe(0);
    // More files in one burst than one review holds: the folder pauses, one change held.
    for (let i = 0; i <= WATCH_MAX_FILES_PER_REVIEW; i++) {
      writeFileSync(path.join(ws, `f${String(i).padStart(4, '0')}.txt`), `${i}\n`);
    }
    const reason = `more than ${WATCH_MAX_FILES_PER_REVIEW} files changed while its review waits; decide that review, then resume to review the rest`;
    await until(
      () => (rt.runtime.core.snapshot().watchIssues?.[0]?.paused?.heldChanges === 1 ? true : undefined),
      'the folder paused',
    );
    const status = await difftray(rt, ['status'], ws);
    expect(status.stdout.split('\n')).toContain(
      `  PAUSED in ${ws}: ${reason}; 1 change(s) held, not reviewed yet (resume: difftray watch ${ws})`,
    );

    // The person decides the review, then resumes from the command line: the held file is reviewed.
    const [pending] = rt.runtime.core.queue.pendingItems();
    await rt.runtime.handler('reject', { reviewId: pending!.id });
    expect((await difftray(rt, ['watch'], ws)).code).toBe(0);
    const held = path.join(ws, `f${String(WATCH_MAX_FILES_PER_REVIEW).padStart(4, '0')}.txt`);
    expect((await reviewOf(rt, held)).files.map((file) => file.path)).toEqual([held]);
    expect(rt.runtime.core.snapshot().watchIssues).toEqual([]);
  });

  it('refuses, with one line and exit 2: outside the workspace, missing, a file, extra arguments', async () => {
    const rt = await app();
    const ws = rt.workspace;
    writeFileSync(path.join(ws, 'file.txt'), 'x\n');
    expect(await difftray(rt, ['watch', '..'], ws)).toEqual(
      failed(
        `${path.dirname(ws)} is outside the workspace folders (DiffTray's workspace: ${ws}); add the folder in ` +
          'Settings → Workspace folders, or start DiffTray with --workspace <folder>',
      ),
    );
    expect(await difftray(rt, ['watch', 'missing'], ws)).toEqual(failed(`${ws}/missing is not a folder`));
    expect(await difftray(rt, ['watch', 'file.txt'], ws)).toEqual(failed(`${ws}/file.txt is not a folder`));
    expect(await difftray(rt, ['watch', 'a', 'b'], ws)).toEqual(failed('watch takes one folder, not 2'));
    expect(await difftray(rt, ['watch', '--of'], ws)).toEqual(failed("unknown option '--of'"));
    expect(watched(rt)).toEqual([]);
  });

  it('says so when DiffTray is not running', async () => {
    const temp = makeTempDir('watch-none');
    try {
      expect(await difftray({ home: temp.dir, tmpDir: temp.dir }, ['watch'], temp.dir)).toEqual(
        failed(
          'DiffTray is not running (no lock file in ~/.difftray): start it (the DiffTray app, or npm start in ' +
            'its folder), or set DIFFTRAY_HOME to the folder the running one uses',
        ),
      );
    } finally {
      temp.cleanup();
    }
  });
});
