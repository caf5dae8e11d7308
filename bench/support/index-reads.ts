/**
 * (w) A burst of changed tracked files in a git work tree needs each file's index text as its first
 * baseline: Baselines.get for every file after one Baselines.prefetch (`git cat-file --batch`, a few
 * processes), against get alone (one `git cat-file blob` process per file, as before prefetch). A fresh
 * Baselines each round, so no text is already kept; the disk texts are read as the review reads them.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Baselines } from '../../src-main/core/watch/baselines';
import { GitIndex } from '../../src-main/core/watch/git-index';
import { figure } from './results';
import { interleave, since } from './stats';

const FILES = 500;

export async function benchIndexReads(root: string, reps: number): Promise<void> {
  const repo = path.join(root, 'index-reads');
  const files: string[] = [];
  for (let f = 0; f < FILES; f++) {
    const folder = path.join(repo, `d${Math.floor(f / 20)}`);
    mkdirSync(folder, { recursive: true });
    const file = path.join(folder, `file${f}.ts`);
    // A few kB each, as source files are.
    writeFileSync(file, `export const x${f} = ${f};\n`.repeat(120));
    files.push(file);
  }
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@localhost', ...args], {
      cwd: repo,
      stdio: 'ignore',
    });
  git('init', '-q');
  git('add', '-A');
  git('commit', '-qm', 'tree');
  // The burst: every file changed on disk.
  for (const file of files) writeFileSync(file, `// changed\n`, { flag: 'a' });
  const index = (await GitIndex.find(repo))!;

  const burst = async (batched: boolean): Promise<number> => {
    const baselines = new Baselines(index);
    const start = performance.now();
    if (batched) await baselines.prefetch(files);
    for (const file of files) {
      const baseline = await baselines.get(file);
      if (!baseline.known) throw new Error(`${file}: ${baseline.why}`);
    }
    return since(start);
  };
  const [batched, perFile] = await interleave(
    reps,
    () => burst(true),
    () => burst(false),
  );
  figure(
    'w',
    `index texts of a ${FILES}-file burst in git`,
    'ms',
    batched,
    'one git process per file',
    perFile,
    '< 0.5×',
  );
}
