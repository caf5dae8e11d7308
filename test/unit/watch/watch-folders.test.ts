/** Reads in a watched folder are judged against the folder as it was when watching began. */
import { mkdirSync, realpathSync, renameSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openInWatchedFolder } from '../../../src-main/core/watch/watch-folders';
import { PathOutsideWorkspaceError } from '../../../src-main/core/workspace/workspace-paths';
import { makeTempDir } from '../../support/temp';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

describe('openInWatchedFolder', () => {
  it('opens folders inside the watched one; once a link stands in its place, nothing through it', async () => {
    const temp = makeTempDir('watch-folders');
    cleanups.push(temp.cleanup);
    const base = realpathSync(temp.dir);
    const root = path.join(base, 'watched');
    const elsewhere = path.join(base, 'elsewhere');
    mkdirSync(path.join(root, 'deep'), { recursive: true });
    mkdirSync(path.join(elsewhere, 'deep'), { recursive: true });
    const directory = await openInWatchedFolder(path.join(root, 'deep'), root);
    expect(directory.realPath).toBe(path.join(root, 'deep'));
    await directory.close();

    renameSync(root, path.join(base, 'moved'));
    symlinkSync(elsewhere, root);
    await expect(openInWatchedFolder(path.join(root, 'deep'), root)).rejects.toThrow(
      PathOutsideWorkspaceError,
    );
    await expect(openInWatchedFolder(path.join(root, 'deep'), root)).rejects.toThrow(
      `${path.join(root, 'deep')} now leads to ${path.join(elsewhere, 'deep')}, outside ${root}`,
    );
  });
});
