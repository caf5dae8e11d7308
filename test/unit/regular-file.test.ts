/** The non-blocking reader: a FIFO, a device or a folder is refused at once; a file is read whole. */
import { execFileSync } from 'node:child_process';
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NotRegularFileError, readRegularFile } from '../../src-main/core/disk/regular-file';
import { makeTempDir } from '../support/temp';

const posix = process.platform !== 'win32';
let root: string;
let cleanup: () => void;

beforeEach(() => {
  const temp = makeTempDir('regular-file');
  root = realpathSync(temp.dir);
  cleanup = temp.cleanup;
});
afterEach(() => cleanup());

describe('readRegularFile', () => {
  it('reads a file as readFileSync would, and throws ENOENT for a missing one', () => {
    writeFileSync(path.join(root, 'a.json'), '\uFEFF{"é": 1}\n');
    expect(readRegularFile(path.join(root, 'a.json'))).toBe('\uFEFF{"é": 1}\n');
    expect(() => readRegularFile(path.join(root, 'none'))).toThrow(
      expect.objectContaining({ code: 'ENOENT' }),
    );
  });

  it.runIf(posix)('refuses a FIFO at once instead of waiting for a writer', () => {
    const fifo = path.join(root, 'settings.json');
    execFileSync('mkfifo', [fifo]);
    expect(() => readRegularFile(fifo)).toThrow(NotRegularFileError);
    expect(() => readRegularFile(fifo)).toThrow(/named pipe \(FIFO\), not a regular file/);
  });

  it.runIf(posix)('refuses a device, a folder, a file over the limit, and a link when told to', () => {
    mkdirSync(path.join(root, 'folder'));
    writeFileSync(path.join(root, 'big'), 'x'.repeat(100));
    symlinkSync(path.join(root, 'big'), path.join(root, 'link'));
    expect(() => readRegularFile('/dev/zero')).toThrow(/A device, not a regular file/);
    expect(() => readRegularFile(path.join(root, 'folder'))).toThrow(/A folder/);
    expect(() => readRegularFile(path.join(root, 'big'), { maxBytes: 99 })).toThrow(/larger than 99 bytes/);
    expect(readRegularFile(path.join(root, 'link'))).toHaveLength(100);
    expect(() => readRegularFile(path.join(root, 'link'), { noFollow: true })).toThrow(/symbolic link/);
  });
});
