import { execFileSync } from 'node:child_process';
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readSmallFileSync } from '../../src-main/core/disk/small-file-read';
import { makeTempDir } from '../support/temp';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function folder(): string {
  const temp = makeTempDir('small-read');
  cleanups.push(temp.cleanup);
  return realpathSync(temp.dir);
}

describe('readSmallFileSync', () => {
  it('reads a small regular file, and says why anything else is not read', () => {
    const dir = folder();
    const file = path.join(dir, 'rules');
    writeFileSync(file, '*.log\n');
    symlinkSync(file, path.join(dir, 'link'));
    mkdirSync(path.join(dir, 'folder'));
    execFileSync('mkfifo', [path.join(dir, 'fifo')]);
    writeFileSync(path.join(dir, 'big'), 'x'.repeat(101));

    expect(readSmallFileSync(file, 100)).toEqual({ ok: true, text: '*.log\n' });
    expect(readSmallFileSync(path.join(dir, 'link'), 100)).toEqual({ ok: false, why: 'symlink' });
    expect(readSmallFileSync(path.join(dir, 'link'), 100, { followLinks: true })).toEqual({
      ok: true,
      text: '*.log\n',
    });
    // A FIFO is refused without waiting for a writer.
    expect(readSmallFileSync(path.join(dir, 'fifo'), 100)).toEqual({ ok: false, why: 'not a regular file' });
    expect(readSmallFileSync(path.join(dir, 'folder'), 100)).toEqual({
      ok: false,
      why: 'not a regular file',
    });
    expect(readSmallFileSync(path.join(dir, 'big'), 100)).toEqual({ ok: false, why: 'too large' });
    expect(readSmallFileSync(path.join(dir, 'missing'), 100)).toEqual({ ok: false, why: 'absent' });
  });
});
