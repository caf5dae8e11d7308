/**
 * (w) Watch mode on a 50,000-file tree (2,500 folders of 20 files, generated in a temp folder):
 * - start: WatchMode.start (one walk that sets a watch per folder; outside git it also reads the start
 *   snapshot) raced against a floor: the bare walk with readdirSync and one fs.watch per folder.
 * - one changed file to its pending review, with no quiet period: in the 50,000-file tree against the
 *   same in a 100-file tree (the cost must grow with the changed files, not the tree).
 * - idle CPU of the process while both trees are watched and nothing changes.
 * - the index texts a burst of 500 changed tracked files needs, batched against one git process per file
 *   (support/index-reads.ts).
 * In-process: core and watch mode, no sockets.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, realpathSync, watch, writeFileSync, type FSWatcher } from 'node:fs';
import path from 'node:path';
import { AppCore } from '../src-main/core/app-core';
import { WatchMode } from '../src-main/core/watch/watch-mode';
import { makeTempDir } from '../test/support/temp';
import { benchIndexReads } from './support/index-reads';
import { figure } from './support/results';
import { interleave, since, sleep } from './support/stats';

const FOLDERS = 2500;
const FILES_PER_FOLDER = 20;
const REPS = 5;

function generate(root: string, folders: number, filesPerFolder: number): void {
  for (let f = 0; f < folders; f++) {
    const folder = path.join(root, `d${Math.floor(f / 50)}`, `f${f}`);
    mkdirSync(folder, { recursive: true });
    for (let i = 0; i < filesPerFolder; i++)
      writeFileSync(path.join(folder, `file${i}.ts`), `export const x${i} = ${f};\n`);
  }
}

function bareWalk(root: string): FSWatcher[] {
  const watchers: FSWatcher[] = [];
  const pending = [root];
  while (pending.length > 0) {
    const folder = pending.pop()!;
    watchers.push(watch(folder, { persistent: false }, () => {}));
    for (const entry of readdirSync(folder, { withFileTypes: true }))
      if (entry.isDirectory()) pending.push(path.join(folder, entry.name));
  }
  return watchers;
}

async function timeStart(root: string): Promise<number> {
  const core = new AppCore([root]);
  const start = performance.now();
  const mode = await WatchMode.start(core, [root]);
  const ms = since(start);
  await mode.close();
  return ms;
}

async function timeBare(root: string): Promise<number> {
  const start = performance.now();
  const watchers = bareWalk(root);
  const ms = since(start);
  for (const watcher of watchers) watcher.close();
  return ms;
}

/** ms from writing one file of a watched tree to its review pending; the review is then accepted. */
async function timeChange(core: AppCore, file: string, round: number): Promise<number> {
  const start = performance.now();
  writeFileSync(file, `changed ${round}\n`);
  while (core.queue.pendingCount() === 0) await sleep(1);
  const ms = since(start);
  // Accepted: the text stays as written, so nothing is written back to race the next round.
  for (const review of core.queue.pendingItems()) core.queue.submit(review.id);
  return ms;
}

const temp = makeTempDir('watch-bench');
try {
  const root = realpathSync(temp.dir);
  const plain = path.join(root, 'plain');
  const git = path.join(root, 'git');
  const small = path.join(root, 'small');
  for (const tree of [plain, git]) generate(tree, FOLDERS, FILES_PER_FOLDER);
  generate(small, 5, FILES_PER_FOLDER);
  execFileSync('git', ['init', '-q'], { cwd: git });
  // Tracked, as a repository's files are: their first baselines come from the index, unread at start.
  execFileSync('git', ['add', '-A'], { cwd: git });
  execFileSync(
    'git',
    ['-c', 'user.name=bench', '-c', 'user.email=bench@localhost', 'commit', '-qm', 'tree'],
    {
      cwd: git,
    },
  );

  for (const [label, tree] of [
    ['plain folder', plain],
    ['git work tree (committed)', git],
  ] as const) {
    const [app, floor] = await interleave(
      REPS,
      () => timeStart(tree),
      () => timeBare(tree),
    );
    figure(
      'w',
      `watch start, 50,000 files, ${label}`,
      'ms',
      app,
      'bare walk + fs.watch',
      floor,
      '< 2,000 ms',
    );
  }

  const bigCore = new AppCore([plain]);
  const smallCore = new AppCore([small]);
  const big = await WatchMode.start(bigCore, [plain], { quietMs: 0 });
  const little = await WatchMode.start(smallCore, [small], { quietMs: 0 });
  let round = 0;
  const [inBig, inSmall] = await interleave(
    15,
    () => timeChange(bigCore, path.join(plain, 'd10', 'f500', 'file3.ts'), round++),
    () => timeChange(smallCore, path.join(small, 'd0', 'f2', 'file3.ts'), round++),
  );
  figure('w', 'one change → review pending, 50,000-file tree', 'ms', inBig, '100-file tree', inSmall, '≈ 1×');

  await sleep(1000);
  const idle: number[] = [];
  for (let w = 0; w < 3; w++) {
    const cpu = process.cpuUsage();
    const start = performance.now();
    await sleep(3000);
    const used = process.cpuUsage(cpu);
    idle.push(((used.user + used.system) / 1000 / since(start)) * 100);
  }
  figure('w', 'idle CPU, 50,100 files watched', '% of a core', idle, '—', [0], '0 %');
  await big.close();
  await little.close();

  await benchIndexReads(root, REPS);
} finally {
  temp.cleanup();
}
