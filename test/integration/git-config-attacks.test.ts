/**
 * The workspace runs no code on the host. An agent confined to the workspace can write its
 * `.git/config`, `.gitattributes` and hooks; each test plants one kind of program there, a script that
 * leaves a marker file OUTSIDE the workspace, then does what DiffTray's git calls are made for: watch
 * mode starts (rev-parse, config, ls-files), bursts of changes are reviewed against the index (cat-file
 * blob, --batch-check, --batch, ls-files --unmerged) and a native client asks for the file tree (ls-files).
 * The marker must never appear, and the reviews must still show the index texts as baselines.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ReviewSummary } from '../../shared/app-api';
import { NATIVE_HEADER, RawNative } from '../support/raw-native';
import { startTestRuntime, type TestRuntime } from '../support/test-runtime';
import { waitForReview } from '../support/wait';

const LINES = Array.from({ length: 12 }, (_, i) => `line ${i + 1}`);
const BASE = LINES.join('\n') + '\n';
const EDITED = BASE.replace('line 2\n', 'line TWO\n');
/** Enough files for a burst to be read in one `cat-file --batch` (baselines.ts PREFETCH_FROM). */
const NAMES = ['a.txt', 'b.txt', 'c.txt', 'd.txt', 'e.txt'];

let t: TestRuntime | undefined;
let clients: RawNative[] = [];
const savedPath = process.env.PATH;
afterEach(async () => {
  process.env.PATH = savedPath;
  for (const client of clients) client.close();
  clients = [];
  await t?.close();
  t = undefined;
});

function git(cwd: string, ...args: string[]): void {
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd, stdio: 'ignore' });
}

/**
 * What an attack plants, given the workspace and the path of a script that writes the marker. Called
 * after the repository's commit, so the test's own git commands never run what is planted.
 */
type Plant = (workspace: string, script: string) => void;

/** Where the marker goes: beside the workspace, outside it. */
const markerOf = (workspace: string) => path.join(path.dirname(workspace), 'outside', 'marker');

/** A workspace with NAMES committed, `plant` done, watched; its marker path. */
async function plantedAndWatched(plant: Plant): Promise<{ rt: TestRuntime; marker: string }> {
  let marker = '';
  t = await startTestRuntime({
    watchQuietMs: 150,
    beforeStart: (home) => {
      const workspace = path.join(path.dirname(home), 'workspace');
      marker = markerOf(workspace);
      const outside = path.dirname(marker);
      mkdirSync(outside, { recursive: true });
      const script = path.join(outside, 'evil.sh');
      // Records that it ran, and fails (git goes on without what it asked of it).
      writeFileSync(script, `#!/bin/sh\necho "ran: $0 $*" >> '${marker}'\nexit 1\n`);
      chmodSync(script, 0o755);
      git(workspace, 'init', '-q');
      for (const name of NAMES) writeFileSync(path.join(workspace, name), `${name}\n${BASE}`);
      git(workspace, 'add', '-A');
      git(workspace, 'commit', '-qm', 'base');
      plant(workspace, script);
      mkdirSync(path.join(home, '.difftray'), { recursive: true });
      writeFileSync(path.join(home, '.difftray', 'settings.json'), JSON.stringify({ watchFolders: ['.'] }));
    },
  });
  return { rt: t, marker };
}

const isWatchReview = (review: ReviewSummary) => review.client.name === 'Changes on disk';

/** Makes watch bursts (one file, then all of them, then a new file) and checks each review's baselines. */
async function burstsReviewedAgainstTheIndex(rt: TestRuntime): Promise<void> {
  const ws = (name: string) => path.join(rt.workspace, name);
  const pendingWith = (names: string[]) =>
    waitForReview(
      rt.runtime.core,
      (review) =>
        isWatchReview(review) &&
        review.state === 'pending' &&
        review.files.map((file) => path.relative(rt.workspace, file.path)).join() === names.join(),
    );
  const baselines = async (review: ReviewSummary) =>
    ((await rt.runtime.handler('getReviewContent', { reviewId: review.id })) as { baseText: string }[]).map(
      (file) => file.baseText,
    );

  // One file: `cat-file blob :0:<path>`.
  writeFileSync(ws('a.txt'), `a.txt\n${EDITED}`);
  const one = await pendingWith(['a.txt']);
  expect(await baselines(one)).toEqual([`a.txt\n${BASE}`]);
  await rt.runtime.handler('submit', { reviewId: one.id });

  // A burst: `cat-file --batch-check` and `--batch`; a new file: `ls-files --unmerged`.
  const rest = NAMES.slice(1);
  for (const name of rest) writeFileSync(ws(name), `${name}\n${EDITED}`);
  writeFileSync(ws('new.txt'), 'brand new\n');
  const burst = await pendingWith([...rest, 'new.txt']);
  expect(await baselines(burst)).toEqual([...rest.map((name) => `${name}\n${BASE}`), '']);
  expect(burst.files.at(-1)?.isNewFile).toBe(true);
}

/** A real native client asks for the file tree (git ls-files), as an agent would. */
async function fileTreeAsked(rt: TestRuntime): Promise<unknown> {
  const { native } = rt.runtime;
  const client = await RawNative.open(native.port, { [NATIVE_HEADER]: native.token });
  clients.push(client);
  expect((await client.request('hello', { client_name: 'tree-agent' })).type).toBe('response');
  const answer = await client.request('get_file_tree', {});
  expect(answer.type).toBe('response');
  return answer.payload;
}

async function attackedAndNothingRan(plant: Plant, files = [...NAMES].sort()): Promise<void> {
  const { rt, marker } = await plantedAndWatched(plant);
  await burstsReviewedAgainstTheIndex(rt);
  const tree = await fileTreeAsked(rt);
  expect(existsSync(marker) ? readFileSync(marker, 'utf8') : 'not created').toBe('not created');
  // Still git's answer: the file tree honours .gitignore.
  expect(tree).toMatchObject({ filter_type: 'gitignore', files: expect.arrayContaining(files) as unknown });
}

describe('git config and attributes planted in the workspace run nothing', () => {
  it('core.fsmonitor', async () => {
    await attackedAndNothingRan((workspace, script) => git(workspace, 'config', 'core.fsmonitor', script));
  });

  it('a clean/smudge filter and a long-running filter process, chosen by .gitattributes', async () => {
    await attackedAndNothingRan(
      (workspace, script) => {
        writeFileSync(path.join(workspace, '.gitattributes'), '*.txt filter=evil\n[abc].txt filter=proc\n');
        git(workspace, 'config', 'filter.evil.clean', script);
        git(workspace, 'config', 'filter.evil.smudge', script);
        git(workspace, 'config', 'filter.evil.required', 'true');
        git(workspace, 'config', 'filter.proc.process', script);
        git(workspace, 'config', 'filter.proc.required', 'true');
      },
      [...NAMES, '.gitattributes'].sort(),
    );
  });

  it('diff.external, a textconv driver, a pager, an ssh command and a credential helper', async () => {
    await attackedAndNothingRan(
      (workspace, script) => {
        writeFileSync(path.join(workspace, '.gitattributes'), '*.txt diff=evil\n');
        for (const key of [
          'diff.external',
          'diff.evil.textconv',
          'diff.evil.command',
          'core.pager',
          'core.sshCommand',
          'credential.helper',
        ]) {
          git(workspace, 'config', key, script);
        }
      },
      [...NAMES, '.gitattributes'].sort(),
    );
  });

  it('core.hooksPath and .git/hooks, with every hook git has', async () => {
    const hooks = [
      'post-index-change',
      'reference-transaction',
      'pre-auto-gc',
      'post-checkout',
      'pre-commit',
      'fsmonitor-watchman',
      'post-merge',
      'post-rewrite',
    ];
    await attackedAndNothingRan((workspace, script) => {
      const hooksPath = path.join(path.dirname(script), 'hooks');
      mkdirSync(hooksPath, { recursive: true });
      for (const hook of hooks) {
        for (const folder of [hooksPath, path.join(workspace, '.git', 'hooks')]) {
          writeFileSync(path.join(folder, hook), readFileSync(script));
          chmodSync(path.join(folder, hook), 0o755);
        }
      }
      git(workspace, 'config', 'core.hooksPath', hooksPath);
    });
  });

  it('a `git` program planted in the workspace, found through an empty entry in PATH', async () => {
    await attackedAndNothingRan(
      (workspace, script) => {
        writeFileSync(path.join(workspace, 'git'), readFileSync(script));
        chmodSync(path.join(workspace, 'git'), 0o755);
        // An empty entry (here the first) means the current folder, which is where git runs: the workspace.
        // DiffTray's own environment, as a careless shell profile leaves it.
        process.env.PATH = `:${savedPath ?? '/usr/bin:/bin'}`;
      },
      [...NAMES, 'git'].sort(),
    );
  });
});
