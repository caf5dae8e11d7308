import { afterEach, beforeEach, describe, it, expect, vi } from 'vitest';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MAX_PATH_CHARS } from '../../shared/limits';
import { readSettingsFile } from '../../src-main/core/settings/settings-read';
import {
  difftrayHome,
  extraLockFolders,
  resolveWorkspaceFolders,
  watchFolders,
  type Settings,
} from '../../src-main/core/settings/settings';

let root: string;

beforeEach(() => {
  root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'difftray-unit-settings-')));
});

afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

describe('extraLockFolders', () => {
  const home = path.join(path.sep, 'home', 'someone');

  // The helper on the raw key, as settings.json holds it: entries are judged one by one here. (A file
  // whose list the window's schema refuses as a whole is reported by the store: settings-store.test.ts.)
  function load(content: Record<string, unknown>) {
    const warn = vi.fn<(message: string) => void>();
    const settings = { workspaceFolders: [], ...content } as Settings;
    return { folders: extraLockFolders(settings, home, warn), warnings: warn.mock.calls.map(([m]) => m) };
  }

  it('is empty when the setting is absent', () => {
    expect(load({ workspaceFolders: [] })).toEqual({ folders: [], warnings: [] });
  });

  it('keeps absolute paths, normalized and without duplicates', () => {
    expect(load({ extraLockFolders: ['/opt/fork/ide', '/opt/fork/./ide/', '/srv/x/../y'] })).toEqual({
      folders: ['/opt/fork/ide', '/srv/y'],
      warnings: [],
    });
  });

  it('expands ~ and ~/ against the home folder', () => {
    expect(load({ extraLockFolders: ['~/.myfork/ide', '~'] }).folders).toEqual([
      path.join(home, '.myfork', 'ide'),
      home,
    ]);
  });

  it('reports each bad entry and keeps the good ones and the rest of the file', () => {
    const { folders, warnings } = load({
      workspaceFolders: ['/w'],
      extraLockFolders: ['relative/ide', '~other/ide', '', 42, null, { dir: '/x' }, '/good/ide'],
    });
    expect(folders).toEqual(['/good/ide']);
    expect(warnings).toHaveLength(6);
    expect(warnings[0]).toContain('"relative/ide"');
    expect(warnings[1]).toContain('"~other/ide"');
    expect(warnings[3]).toContain('42');
    for (const warning of warnings) expect(warning).toMatch(/^Ignoring extraLockFolders entry /);
  });

  it('refuses a path longer than the shared path limit, with a bounded warning', () => {
    const long = `/${'a'.repeat(MAX_PATH_CHARS)}`;
    const { folders, warnings } = load({ extraLockFolders: [long] });
    expect(folders).toEqual([]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.length).toBeLessThan(400);
  });
});

describe('difftrayHome', () => {
  it('uses DIFFTRAY_HOME when set, else ~/.difftray', () => {
    expect(difftrayHome({ DIFFTRAY_HOME: '/custom/home' })).toBe('/custom/home');
    expect(difftrayHome({})).toBe(path.join(os.homedir(), '.difftray'));
    expect(difftrayHome({ DIFFTRAY_HOME: '' })).toBe(path.join(os.homedir(), '.difftray'));
  });
});

describe('resolveWorkspaceFolders', () => {
  let cwd: string;
  let a: string;
  let b: string;
  let c: string;

  beforeEach(() => {
    cwd = path.join(root, 'cwd');
    a = path.join(root, 'a');
    b = path.join(root, 'b');
    c = path.join(cwd, 'c');
    for (const folder of [cwd, a, b, c]) mkdirSync(folder, { recursive: true });
  });

  // `npm start` run in the folder: the one way the current directory becomes a workspace folder.
  const npmStart = {
    home: '/home/someone',
    platform: 'linux' as const,
    tmpDir: '/tmp',
    env: { npm_lifecycle_event: 'start' },
  };

  it('defaults to the cwd when no folder is given and npm start was run there', () => {
    expect(resolveWorkspaceFolders([], { workspaceFolders: [] }, cwd, npmStart)).toEqual([cwd]);
  });

  it('uses the command-line folders instead of the cwd', () => {
    expect(resolveWorkspaceFolders([a, b], { workspaceFolders: [] }, cwd, npmStart)).toEqual([a, b]);
  });

  it('appends settings folders after the command-line folders (or the cwd)', () => {
    expect(resolveWorkspaceFolders([a], { workspaceFolders: [b] }, cwd, npmStart)).toEqual([a, b]);
    expect(resolveWorkspaceFolders([], { workspaceFolders: [b] }, cwd, npmStart)).toEqual([cwd, b]);
  });

  it('deduplicates, keeping first occurrence order', () => {
    expect(
      resolveWorkspaceFolders([a, b, a], { workspaceFolders: [b, a, `${a}/`, `${b}/./`] }, cwd, npmStart),
    ).toEqual([a, b]);
    expect(resolveWorkspaceFolders([], { workspaceFolders: [cwd] }, cwd, npmStart)).toEqual([cwd]);
  });

  it('resolves relative folders against the given cwd, not the process cwd', () => {
    expect(
      resolveWorkspaceFolders(['c', '../a'], { workspaceFolders: ['./c', '../b'] }, cwd, npmStart),
    ).toEqual([c, a, b]);
    expect(resolveWorkspaceFolders(['.'], { workspaceFolders: [] }, cwd, npmStart)).toEqual([cwd]);
  });

  it('returns real paths: a symlinked folder is resolved and deduplicated with its target', () => {
    const link = path.join(root, 'link-to-a');
    symlinkSync(a, link);
    expect(resolveWorkspaceFolders([link], { workspaceFolders: [] }, cwd, npmStart)).toEqual([a]);
    expect(resolveWorkspaceFolders([link], { workspaceFolders: [a] }, cwd, npmStart)).toEqual([a]);
    expect(resolveWorkspaceFolders(['../link-to-a'], { workspaceFolders: [] }, cwd, npmStart)).toEqual([a]);
  });

  it('resolves a symlinked cwd too', () => {
    const link = path.join(root, 'cwd-link');
    symlinkSync(cwd, link);
    expect(resolveWorkspaceFolders([], { workspaceFolders: [] }, link, npmStart)).toEqual([cwd]);
  });

  it('keeps a folder that does not exist (yet) as an absolute path', () => {
    const result = resolveWorkspaceFolders(['missing'], { workspaceFolders: [] }, cwd, npmStart);
    expect(result).toEqual([path.join(cwd, 'missing')]);
  });

  it('returns only absolute paths', () => {
    for (const folder of resolveWorkspaceFolders(['x', '../y'], { workspaceFolders: ['z'] }, cwd, npmStart)) {
      expect(path.isAbsolute(folder)).toBe(true);
    }
  });

  it("skips settings.json's root and system folders, saying so; --workspace is taken as given", () => {
    const warn = vi.fn();
    expect(
      resolveWorkspaceFolders(['/etc'], { workspaceFolders: ['/', '/etc', b] }, cwd, npmStart, warn),
    ).toEqual(['/etc', b]);
    expect(warn.mock.calls.map(([message]) => message)).toEqual([
      expect.stringMatching(/^settings\.json: \/ is not taken as a workspace folder: it is the root/),
      expect.stringMatching(
        /^settings\.json: \/etc is not taken as a workspace folder: it is a system folder/,
      ),
    ]);
  });

  it('takes no folder by itself from an app started from a launcher: it asks instead', () => {
    const launcher = { ...npmStart, env: {} };
    expect(resolveWorkspaceFolders([], { workspaceFolders: [] }, cwd, launcher)).toEqual([]);
    expect(resolveWorkspaceFolders([], { workspaceFolders: [b] }, cwd, launcher)).toEqual([b]);
  });

  it('takes the folder npm start was typed in (INIT_CWD), not the package folder', () => {
    const fromProject = { ...npmStart, env: { ...npmStart.env, INIT_CWD: a } };
    expect(resolveWorkspaceFolders([], { workspaceFolders: [] }, cwd, fromProject)).toEqual([a]);
  });

  it('never takes the home folder or the root by itself, even from npm start, and says so', () => {
    const warn = vi.fn();
    const atHome = { ...npmStart, home: cwd };
    expect(resolveWorkspaceFolders([], { workspaceFolders: [] }, cwd, atHome, warn)).toEqual([]);
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/^Not taking .* it is your home folder/));
    expect(resolveWorkspaceFolders([], { workspaceFolders: [] }, '/', npmStart, warn)).toEqual([]);
    expect(warn).toHaveBeenLastCalledWith(expect.stringContaining('it is the root of the disk'));
  });
});

describe('watchFolders', () => {
  it('keeps folders inside the workspace (absolute, ~/ or relative to the first folder), warns of the rest', () => {
    const workspace = path.join(root, 'ws');
    const home = path.join(root, 'home');
    mkdirSync(path.join(workspace, 'src', 'deep'), { recursive: true });
    mkdirSync(path.join(workspace, 'docs'), { recursive: true });
    mkdirSync(path.join(home, 'elsewhere'), { recursive: true });
    writeFileSync(path.join(workspace, 'file.txt'), '');
    symlinkSync(path.join(home, 'elsewhere'), path.join(workspace, 'link-out'));
    const warn = vi.fn();
    const settings = loadSettingsFrom({
      watchFolders: [
        'docs',
        path.join(workspace, 'src'),
        'src/deep',
        '~/elsewhere',
        'link-out',
        'file.txt',
        'missing',
        7,
      ],
    });
    expect(watchFolders(settings, [workspace], home, warn)).toEqual([
      path.join(workspace, 'docs'),
      path.join(workspace, 'src'),
    ]);
    const warnings = warn.mock.calls.map(([message]) => String(message));
    expect(warnings).toEqual([
      expect.stringContaining('"~/elsewhere": it is outside the workspace folders'),
      expect.stringContaining('"link-out": it is outside the workspace folders'),
      expect.stringContaining('"file.txt": it is not a folder'),
      expect.stringContaining('"missing": it is not a folder'),
      expect.stringContaining('7: it must be a path'),
    ]);
  });

  it('is empty when not set', () => {
    expect(watchFolders(loadSettingsFrom({}), [root], root)).toEqual([]);
  });
});

function loadSettingsFrom(value: unknown) {
  const file = path.join(root, 'settings.json');
  writeFileSync(file, JSON.stringify(value));
  return readSettingsFile(file).main;
}
