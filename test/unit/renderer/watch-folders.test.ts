import { describe, expect, it } from 'vitest';
import {
  coveredBy,
  isInsideFolder,
  shownSubfolder,
  switchState,
  watchedInWorkspace,
  watchFolderGroups,
  watchOutcome,
  watchSwitchLabel,
} from '../../../src-renderer/views/watch-folders';

describe('isInsideFolder', () => {
  it('is true for the folder itself and what lies under it, with either separator', () => {
    expect(isInsideFolder('/w', '/w')).toBe(true);
    expect(isInsideFolder('/w/', '/w')).toBe(true);
    expect(isInsideFolder('/w', '/w/sub/deep')).toBe(true);
    expect(isInsideFolder('C:\\w', 'C:\\w\\sub')).toBe(true);
  });

  it('is false for a sibling whose name starts the same, or a folder around it', () => {
    expect(isInsideFolder('/w', '/work')).toBe(false);
    expect(isInsideFolder('/w/sub', '/w')).toBe(false);
    expect(isInsideFolder('C:\\w', 'C:\\work')).toBe(false);
  });
});

describe('switchState and coveredBy', () => {
  it('off when not watched, on when watched itself', () => {
    expect(switchState('/w', [])).toEqual({ kind: 'off' });
    expect(switchState('/w', ['/w'])).toEqual({ kind: 'on' });
    expect(switchState('/w', ['/w/sub'])).toEqual({ kind: 'off' });
  });

  it('a folder inside a watched one is covered by the outermost of them', () => {
    expect(switchState('/w/a/b', ['/w/a', '/w'])).toEqual({ kind: 'covered', by: '/w' });
    expect(coveredBy('/w/a', ['/w/a'])).toBeUndefined();
    expect(coveredBy('/other', ['/w'])).toBeUndefined();
  });
});

describe('watchFolderGroups', () => {
  it('lists every workspace folder in order, each off when nothing is watched', () => {
    expect(watchFolderGroups(['/b', '/a'], [])).toEqual([
      { workspace: { folder: '/b', state: { kind: 'off' } }, subfolders: [] },
      { workspace: { folder: '/a', state: { kind: 'off' } }, subfolders: [] },
    ]);
  });

  it('a watched subfolder from the settings is listed under its workspace folder, which stays off', () => {
    expect(watchFolderGroups(['/w', '/x'], ['/w/src/b', '/w/src/a'])).toEqual([
      {
        workspace: { folder: '/w', state: { kind: 'off' } },
        subfolders: [
          { folder: '/w/src/a', state: { kind: 'on' } },
          { folder: '/w/src/b', state: { kind: 'on' } },
        ],
      },
      { workspace: { folder: '/x', state: { kind: 'off' } }, subfolders: [] },
    ]);
  });

  it('a workspace folder inside a watched one is covered; a subfolder goes under the innermost workspace folder', () => {
    const groups = watchFolderGroups(['/w', '/w/inner'], ['/w']);
    expect(groups.map((g) => g.workspace)).toEqual([
      { folder: '/w', state: { kind: 'on' } },
      { folder: '/w/inner', state: { kind: 'covered', by: '/w' } },
    ]);
    const nested = watchFolderGroups(['/w', '/w/inner'], ['/w/inner/lib']);
    expect(nested[0]?.subfolders).toEqual([]);
    expect(nested[1]?.subfolders).toEqual([{ folder: '/w/inner/lib', state: { kind: 'on' } }]);
  });

  it('a watched folder inside no workspace folder gets a group of its own, so it can be turned off', () => {
    expect(watchFolderGroups(['/w'], ['/gone']).map((g) => g.workspace)).toEqual([
      { folder: '/w', state: { kind: 'off' } },
      { folder: '/gone', state: { kind: 'on' } },
    ]);
  });
});

describe('texts', () => {
  it('a subfolder is shown by the part after its workspace folder', () => {
    expect(shownSubfolder('/w', '/w/src/lib')).toBe('src/lib');
    expect(shownSubfolder('/w/', '/w/src')).toBe('src');
    expect(shownSubfolder('/w', '/elsewhere')).toBe('/elsewhere');
  });

  it('the switch names its folder; the outcome says what happened or why not', () => {
    expect(watchSwitchLabel('/w')).toBe('Review changes on disk in /w');
    expect(watchOutcome('/w', true)).toBe('Reviewing changes on disk in /w');
    expect(watchOutcome('/w', false)).toBe('No longer reviewing changes on disk in /w');
    expect(watchOutcome('/w', true, 'it is not a folder')).toBe(
      'Could not turn on reviewing changes on disk in /w: it is not a folder',
    );
  });

  it('the empty state names the watched folders that lie in the workspace', () => {
    expect(watchedInWorkspace(['/w'], ['/w/src', '/gone'])).toEqual(['/w/src']);
    expect(watchedInWorkspace(['/w'], [])).toEqual([]);
  });
});
