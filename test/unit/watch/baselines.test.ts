import { execFileSync } from 'node:child_process';
import { realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Baselines } from '../../../src-main/core/watch/baselines';
import { GitIndex } from '../../../src-main/core/watch/git-index';
import { makeTempDir } from '../../support/temp';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function folder(): string {
  const temp = makeTempDir('base');
  cleanups.push(temp.cleanup);
  return realpathSync(temp.dir);
}

const text = (value: string) => ({ exists: true as const, kind: 'text' as const, text: value });

function git(cwd: string, ...args: string[]): void {
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd, stdio: 'ignore' });
}

describe('Baselines', () => {
  it('outside git: the start snapshot, a new file as absent, and what is set', async () => {
    const root = folder();
    const a = path.join(root, 'a.txt');
    writeFileSync(a, 'one\n');
    const baselines = new Baselines(undefined);
    baselines.noteFound(a, 4);
    await baselines.snapshotStart(root);
    writeFileSync(a, 'changed\n');
    expect(await baselines.get(a)).toEqual({ known: true, snapshot: text('one\n') });
    expect(await baselines.get(path.join(root, 'new.txt'))).toEqual({
      known: true,
      snapshot: { exists: false },
    });
    baselines.set(a, text('two\n'));
    expect(await baselines.get(a)).toEqual({ known: true, snapshot: text('two\n') });
  });

  it('is bounded by bytes: a file past the budget, or let go, has an unknown baseline that says why', async () => {
    const root = folder();
    const [a, b, c] = ['a', 'b', 'c'].map((name) => path.join(root, name));
    writeFileSync(a!, '12345');
    writeFileSync(b!, '1234567');
    const baselines = new Baselines(undefined, 10);
    baselines.noteFound(a!, 5);
    baselines.noteFound(b!, 7);
    await baselines.snapshotStart(root);
    const skipped = await baselines.get(b!);
    expect(skipped).toMatchObject({ known: false, why: expect.stringContaining('start snapshot') });
    baselines.set(c!, text('123456'));
    expect(baselines.keptBytes).toBeLessThanOrEqual(10);
    expect(await baselines.get(a!)).toMatchObject({ known: false, why: expect.stringContaining('let go') });
    expect(await baselines.get(c!)).toEqual({ known: true, snapshot: text('123456') });
  });

  it('in a git work tree: the index text, absent for a new file, an untracked one unknown until snapshotted', async () => {
    const root = folder();
    git(root, 'init', '-q');
    const tracked = path.join(root, 'tracked.txt');
    const untracked = path.join(root, 'untracked.txt');
    writeFileSync(tracked, 'committed\n');
    git(root, 'add', 'tracked.txt');
    git(root, 'commit', '-qm', 'one');
    writeFileSync(tracked, 'staged\n');
    git(root, 'add', 'tracked.txt');
    writeFileSync(tracked, 'in the work tree\n');
    writeFileSync(untracked, 'mine\n');
    const index = await GitIndex.find(root);
    expect(index?.topLevel).toBe(root);
    const baselines = new Baselines(index);
    baselines.noteFound(tracked, 1);
    baselines.noteFound(untracked, 1);
    expect(await baselines.get(tracked)).toEqual({ known: true, snapshot: text('staged\n') });
    expect(await baselines.get(untracked)).toMatchObject({
      known: false,
      why: expect.stringContaining('untracked'),
    });
    // Once the untracked files are snapshotted, theirs is the text at start.
    await baselines.snapshotStart(root);
    writeFileSync(untracked, 'changed\n');
    expect(await baselines.get(untracked)).toEqual({ known: true, snapshot: text('mine\n') });
    expect(await baselines.get(path.join(root, 'later.txt'))).toEqual({
      known: true,
      snapshot: { exists: false },
    });
  });

  it('reads the start snapshot inside the folder: a link or a FIFO swapped in after the walk is not read', async () => {
    const root = folder();
    const outside = folder();
    const secret = path.join(outside, 'secret.txt');
    writeFileSync(secret, 'not yours\n');
    const [linked, piped, plain] = ['linked.txt', 'piped.txt', 'plain.txt'].map((name) =>
      path.join(root, name),
    );
    for (const file of [linked!, piped!, plain!]) writeFileSync(file, 'text\n');
    const baselines = new Baselines(undefined);
    for (const file of [linked!, piped!, plain!]) baselines.noteFound(file, 5);
    // Swapped after the walk found them, before the snapshot reads them.
    rmSync(linked!);
    symlinkSync(secret, linked!);
    rmSync(piped!);
    execFileSync('mkfifo', [piped!]);
    await baselines.snapshotStart(root);
    expect(await baselines.get(linked!)).toMatchObject({ known: false });
    expect(await baselines.get(piped!)).toMatchObject({ known: false });
    expect(await baselines.get(plain!)).toEqual({ known: true, snapshot: text('text\n') });
  });

  it('finds no git work tree in a plain folder', async () => {
    expect(await GitIndex.find(folder())).toBeUndefined();
  });

  it('in a git work tree, gives the index text the CRLF line endings the file is checked out with', async () => {
    const root = folder();
    git(root, 'init', '-q');
    const file = path.join(root, 'crlf.txt');
    writeFileSync(file, 'one\ntwo\n');
    git(root, 'add', 'crlf.txt');
    const baselines = new Baselines(await GitIndex.find(root));
    const disk = text('one\r\nTWO\r\n');
    expect(await baselines.get(file, disk)).toEqual({ known: true, snapshot: text('one\r\ntwo\r\n') });
    expect(await baselines.get(file, text('one\nTWO\n'))).toEqual({
      known: true,
      snapshot: text('one\ntwo\n'),
    });
  });

  it('in a git work tree, a burst prefetched in one batch has the baselines each file read alone has', async () => {
    const root = folder();
    git(root, 'init', '-q');
    const at = (name: string) => path.join(root, name);
    const names = ['one.txt', 'two.txt', 'three.txt', 'staged.txt', 'crlf.txt', 'binary.bin'];
    for (const name of names) writeFileSync(at(name), `${name} committed\n`);
    writeFileSync(at('binary.bin'), Buffer.from([0, 1, 2]));
    git(root, 'add', '-A');
    git(root, 'commit', '-qm', 'one');
    writeFileSync(at('staged.txt'), 'staged\n');
    git(root, 'add', 'staged.txt');
    writeFileSync(at('untracked.txt'), 'mine\n');
    const burst = [...names, 'untracked.txt', 'new.txt'].map(at);
    const disk = (file: string) =>
      path.basename(file) === 'crlf.txt' ? text('crlf.txt CHANGED\r\n') : text('changed\n');
    const index = await GitIndex.find(root);
    const [alone, batched] = [new Baselines(index), new Baselines(index)];
    for (const baselines of [alone, batched]) baselines.noteFound(at('untracked.txt'), 5);
    await batched.prefetch(burst);
    for (const file of burst)
      expect(await batched.get(file, disk(file))).toEqual(await alone.get(file, disk(file)));
    expect(await batched.get(at('staged.txt'))).toEqual({ known: true, snapshot: text('staged\n') });
    expect(await batched.get(at('crlf.txt'), disk(at('crlf.txt')))).toEqual({
      known: true,
      snapshot: text('crlf.txt committed\r\n'),
    });
    expect(await batched.get(at('new.txt'))).toEqual({ known: true, snapshot: { exists: false } });
  });
});
