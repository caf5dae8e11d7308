import { describe, expect, it } from 'vitest';
import {
  broadFolderProblem,
  implicitStartFolder,
  type FolderContext,
} from '../../src-main/core/workspace/workspace-choice';

const linux: FolderContext = { home: '/home/ana', platform: 'linux', tmpDir: '/tmp', env: {} };
const mac: FolderContext = {
  home: '/Users/ana',
  platform: 'darwin',
  tmpDir: '/private/var/folders/x/T',
  env: {},
};
const windows: FolderContext = {
  home: 'C:\\Users\\ana',
  platform: 'win32',
  tmpDir: 'C:\\Users\\ana\\AppData\\Local\\Temp',
  env: { SystemRoot: 'C:\\Windows', ProgramFiles: 'C:\\Program Files', ProgramData: 'C:\\ProgramData' },
};

describe('broadFolderProblem', () => {
  it.each([
    ['/', linux, /root of the disk/],
    ['/home', linux, /holds your home folder/],
    ['/home/ana', linux, /your home folder/],
    ['/etc', linux, /system folder/],
    ['/usr/lib/x86_64-linux-gnu', linux, /system folder/],
    ['/proc/1', linux, /system folder/],
    ['/tmp', linux, /system folder/],
    ['/usr', linux, /system folder/],
    ['/', mac, /root of the disk/],
    ['/Users', mac, /holds your home folder/],
    ['/Applications', mac, /system folder/],
    ['/System/Library/CoreServices', mac, /system folder/],
    ['/private/var/folders/x/T', mac, /system folder/],
    ['C:\\', windows, /root of the disk/],
    ['D:\\', windows, /root of the disk/],
    ['c:\\windows\\system32', windows, /system folder/],
    ['C:\\Program Files\\App', windows, /system folder/],
    ['C:\\Users', windows, /holds your home folder/],
    ['C:\\users\\ANA', windows, /your home folder/],
  ])('refuses %s', (folder, context, reason) => {
    expect(broadFolderProblem(folder, context)).toMatch(reason);
  });

  it.each([
    ['/home/ana/code/app', linux],
    ['/tmp/scratch', linux],
    ['/opt/project', linux],
    ['/srv/www/site', linux],
    ['/Users/ana/code/app', mac],
    ['/private/var/folders/x/T/test-1', mac],
    ['C:\\Users\\ana\\code\\app', windows],
    ['D:\\work\\app', windows],
  ])('takes %s', (folder, context) => {
    expect(broadFolderProblem(folder, context)).toBeUndefined();
  });

  it('lets the person name the home folder themselves', () => {
    expect(broadFolderProblem('/home/ana', linux, { homeAllowed: true })).toBeUndefined();
    expect(broadFolderProblem('/', linux, { homeAllowed: true })).toMatch(/root/);
  });
});

describe('implicitStartFolder', () => {
  it('takes nothing from an app started by a launcher, whatever its current directory', () => {
    expect(implicitStartFolder('/home/ana/code/app', linux)).toEqual({ skipped: 'started without a folder' });
  });

  it('takes the folder npm start was typed in', () => {
    const env = { npm_lifecycle_event: 'start', INIT_CWD: '/home/ana/code/app' };
    expect(implicitStartFolder('/home/ana/difftray', { ...linux, env })).toEqual({
      folder: '/home/ana/code/app',
    });
    expect(
      implicitStartFolder('/home/ana/difftray', { ...linux, env: { npm_lifecycle_event: 'start' } }),
    ).toEqual({
      folder: '/home/ana/difftray',
    });
  });

  it('never the root or the home folder, even from npm start', () => {
    const env = { npm_lifecycle_event: 'start', INIT_CWD: '/home/ana' };
    expect(implicitStartFolder('/x', { ...linux, env })).toMatchObject({ skipped: '/home/ana' });
  });
});
