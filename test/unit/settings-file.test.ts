import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  lstatSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { watchFoldersToRemember } from '../../src-main/core/settings/settings';
import { readSettingsFile } from '../../src-main/core/settings/settings-read';
import { updateSettingsFile } from '../../src-main/core/settings/settings-file';

let root: string;
beforeEach(() => {
  root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'difftray-unit-settings-file-')));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

describe('updateSettingsFile', () => {
  it('creates the file, private, in a private folder', () => {
    const file = path.join(root, 'home', '.difftray', 'settings.json');
    updateSettingsFile(file, { watchFolders: ['/w'] });
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ watchFolders: ['/w'] });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
  });

  it('changes only the keys given, keeping every other key, and leaves no temp file', () => {
    const file = path.join(root, 'settings.json');
    writeFileSync(file, JSON.stringify({ autoApply: ['Clio'], future: { x: 1 }, watchFolders: ['/a'] }));
    updateSettingsFile(file, { watchFolders: ['/b'] });
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      autoApply: ['Clio'],
      future: { x: 1 },
      watchFolders: ['/b'],
    });
    expect(readdirSync(root)).toEqual(['settings.json']);
  });

  it.each([
    ['not JSON', '{ "autoApply": [ // mine\n', /is not valid JSON, so it was left as it is/],
    ['a JSON array', '["x"]', /is not a JSON object, so it was left as it is/],
  ])('leaves a file that is %s as it is, and says so', (_what, text, message) => {
    const file = path.join(root, 'settings.json');
    writeFileSync(file, text);
    expect(() => updateSettingsFile(file, { watchFolders: [] })).toThrow(message);
    expect(readFileSync(file, 'utf8')).toBe(text);
    expect(readdirSync(root)).toEqual(['settings.json']);
  });

  it('writes a settings.json that is a link where it points, and keeps the link', () => {
    const target = path.join(root, 'dotfiles', 'difftray.json');
    mkdirSync(path.dirname(target));
    writeFileSync(target, JSON.stringify({ theme: 'dark' }));
    const file = path.join(root, 'settings.json');
    symlinkSync(target, file);
    updateSettingsFile(file, { watchFolders: ['/w'] });
    expect(lstatSync(file).isSymbolicLink()).toBe(true);
    expect(JSON.parse(readFileSync(target, 'utf8'))).toEqual({ theme: 'dark', watchFolders: ['/w'] });
  });

  it('an empty file is an empty object', () => {
    const file = path.join(root, 'settings.json');
    writeFileSync(file, '  \n');
    updateSettingsFile(file, { watchFolders: [] });
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ watchFolders: [] });
  });
});

describe('watchFoldersToRemember', () => {
  it('keeps the entries of folders outside this workspace, replaces the rest with what is watched', () => {
    const workspace = path.join(root, 'ws');
    const home = path.join(root, 'home');
    mkdirSync(path.join(workspace, 'src'), { recursive: true });
    mkdirSync(path.join(home, 'other-project'), { recursive: true });
    const file = path.join(root, 'settings.json');
    writeFileSync(
      file,
      JSON.stringify({
        watchFolders: ['src', path.join(workspace, 'src'), '~/other-project', '/somewhere/else', 7],
      }),
    );
    expect(watchFoldersToRemember(readSettingsFile(file).main, [workspace], home, [workspace])).toEqual([
      '~/other-project',
      '/somewhere/else',
      workspace,
    ]);
  });
});
