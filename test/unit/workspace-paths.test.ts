import { afterEach, beforeEach, describe, it, expect } from 'vitest';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  PathOutsideWorkspaceError,
  isCanonicalInsideWorkspace,
  isInside,
  resolveInsideWorkspace,
  resolveRealPath,
} from '../../src-main/core/workspace/workspace-paths';
import { messageOf } from '../../shared/error-message';

let root: string;
let ws: string;
let outside: string;

beforeEach(() => {
  // Real-path'd: on macOS the temp folder itself sits behind a symlink.
  root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'difftray-unit-paths-')));
  ws = path.join(root, 'ws');
  outside = path.join(root, 'outside');
  mkdirSync(path.join(ws, 'sub'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(path.join(ws, 'inside.txt'), 'in\n');
  writeFileSync(path.join(ws, 'sub', 'deep.txt'), 'deep\n');
  writeFileSync(path.join(outside, 'secret.txt'), 'secret\n');
});

afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

describe('isInside', () => {
  it.each([
    ['/a/b', '/a/b', true],
    ['/a/b', '/a/b/c', true],
    ['/a/b', '/a/b/c/d.txt', true],
    ['/a/b', '/a', false],
    ['/a/b', '/a/bc', false],
    ['/a/b', '/a/b-other/x', false],
    ['/a/b', '/x/y', false],
    ['/a/b', '/a/b/../c', false],
  ])('isInside(%s, %s) is %s', (folder, target, expected) => {
    expect(isInside(folder, target)).toBe(expected);
  });

  // Names that merely begin with two dots are inside; only `..` as a whole segment escapes.
  it.each([
    ['/a/b', '/a/b/..env'],
    ['/a/b', '/a/b/...'],
  ])('isInside(%s, %s) is true for a name starting with two dots', (folder, target) => {
    expect(isInside(folder, target)).toBe(true);
  });
});

describe('resolveRealPath', () => {
  it('keeps the missing tail of a not-yet-existing path', () => {
    const target = path.join(ws, 'new', 'dir', 'file.txt');
    expect(resolveRealPath(target)).toBe(target);
  });

  it('resolves a symlinked prefix and keeps the missing rest', () => {
    symlinkSync(outside, path.join(ws, 'link'));
    expect(resolveRealPath(path.join(ws, 'link', 'new.txt'))).toBe(path.join(outside, 'new.txt'));
  });

  it('makes a relative path absolute', () => {
    expect(path.isAbsolute(resolveRealPath('some/relative/thing'))).toBe(true);
  });
});

describe('resolveInsideWorkspace', () => {
  it('accepts an existing file inside and returns its real path', () => {
    const target = path.join(ws, 'sub', 'deep.txt');
    expect(resolveInsideWorkspace(target, [ws])).toBe(target);
  });

  it('accepts the workspace folder itself', () => {
    expect(resolveInsideWorkspace(ws, [ws])).toBe(ws);
  });

  it('accepts a not-yet-existing file, even in not-yet-existing folders', () => {
    expect(resolveInsideWorkspace(path.join(ws, 'new.txt'), [ws])).toBe(path.join(ws, 'new.txt'));
    expect(resolveInsideWorkspace(path.join(ws, 'a', 'b', 'c.ts'), [ws])).toBe(
      path.join(ws, 'a', 'b', 'c.ts'),
    );
  });

  it('refuses a file outside', () => {
    expect(() => resolveInsideWorkspace(path.join(outside, 'secret.txt'), [ws])).toThrow(
      PathOutsideWorkspaceError,
    );
    expect(() => resolveInsideWorkspace('/etc/passwd', [ws])).toThrow(PathOutsideWorkspaceError);
    expect(() => resolveInsideWorkspace(root, [ws])).toThrow(PathOutsideWorkspaceError);
  });

  it('refuses a sibling folder that shares the name prefix', () => {
    mkdirSync(`${ws}-evil`);
    expect(() => resolveInsideWorkspace(path.join(`${ws}-evil`, 'x.txt'), [ws])).toThrow(
      PathOutsideWorkspaceError,
    );
    expect(() => resolveInsideWorkspace(`${ws}2/x.txt`, [ws])).toThrow(PathOutsideWorkspaceError);
  });

  it.each([
    ['..', '..', 'outside', 'secret.txt'],
    ['sub', '..', '..', 'outside', 'secret.txt'],
    ['sub', '..', '..', 'outside', 'new.txt'],
    ['..', 'ws-evil', 'x.txt'],
    ['missing', '..', '..', '..', 'etc', 'passwd'],
  ])('refuses a `..` escape (%s/%s/...)', (...segments) => {
    // Built by string concatenation so that `..` survives into the input.
    const target = `${ws}/${segments.join('/')}`;
    expect(() => resolveInsideWorkspace(target, [ws])).toThrow(PathOutsideWorkspaceError);
  });

  it('accepts a `..` that stays inside and returns the normalized path', () => {
    expect(resolveInsideWorkspace(`${ws}/sub/../inside.txt`, [ws])).toBe(path.join(ws, 'inside.txt'));
    expect(resolveInsideWorkspace(`${ws}/missing/../new.txt`, [ws])).toBe(path.join(ws, 'new.txt'));
  });

  it.each(['inside.txt', './inside.txt', 'ws/inside.txt', '../ws/inside.txt', '', '~/x'])(
    'refuses the relative path %j',
    (target) => {
      expect(() => resolveInsideWorkspace(target, [ws])).toThrow(PathOutsideWorkspaceError);
      expect(() => resolveInsideWorkspace(target, [ws])).toThrow(/absolute/);
    },
  );

  it('refuses a symlinked file inside the workspace that points outside', () => {
    const link = path.join(ws, 'link.txt');
    symlinkSync(path.join(outside, 'secret.txt'), link);
    expect(() => resolveInsideWorkspace(link, [ws])).toThrow(PathOutsideWorkspaceError);
  });

  it('refuses paths through a symlinked folder inside the workspace that points outside', () => {
    const link = path.join(ws, 'linkdir');
    symlinkSync(outside, link);
    expect(() => resolveInsideWorkspace(path.join(link, 'secret.txt'), [ws])).toThrow(
      PathOutsideWorkspaceError,
    );
    expect(() => resolveInsideWorkspace(path.join(link, 'brand-new.txt'), [ws])).toThrow(
      PathOutsideWorkspaceError,
    );
    expect(() => resolveInsideWorkspace(path.join(link, 'x', 'y.txt'), [ws])).toThrow(
      PathOutsideWorkspaceError,
    );
  });

  // A dangling link is followed: whoever writes through it would create its target outside.
  it('refuses a dangling symlink inside the workspace that points to a new file outside', () => {
    const link = path.join(ws, 'evil.txt');
    symlinkSync(path.join(outside, 'not-yet.txt'), link);
    expect(() => resolveInsideWorkspace(link, [ws])).toThrow(PathOutsideWorkspaceError);
  });

  it('accepts a symlink inside that points elsewhere inside, returning the target', () => {
    const link = path.join(ws, 'alias.txt');
    symlinkSync(path.join(ws, 'sub', 'deep.txt'), link);
    expect(resolveInsideWorkspace(link, [ws])).toBe(path.join(ws, 'sub', 'deep.txt'));
  });

  it('works when the workspace folder itself is a symlink', () => {
    const linkedWs = path.join(root, 'ws-link');
    symlinkSync(ws, linkedWs);
    // Through the link, through the real path, existing and new files: all inside.
    expect(resolveInsideWorkspace(path.join(linkedWs, 'inside.txt'), [linkedWs])).toBe(
      path.join(ws, 'inside.txt'),
    );
    expect(resolveInsideWorkspace(path.join(ws, 'inside.txt'), [linkedWs])).toBe(path.join(ws, 'inside.txt'));
    expect(resolveInsideWorkspace(path.join(linkedWs, 'new', 'f.txt'), [linkedWs])).toBe(
      path.join(ws, 'new', 'f.txt'),
    );
    expect(resolveInsideWorkspace(path.join(linkedWs, 'inside.txt'), [ws])).toBe(path.join(ws, 'inside.txt'));
    expect(() => resolveInsideWorkspace(path.join(outside, 'secret.txt'), [linkedWs])).toThrow(
      PathOutsideWorkspaceError,
    );
  });

  it('checks against every folder', () => {
    const other = path.join(root, 'other');
    mkdirSync(other);
    expect(resolveInsideWorkspace(path.join(other, 'x.txt'), [ws, other])).toBe(path.join(other, 'x.txt'));
    expect(() => resolveInsideWorkspace(path.join(outside, 'x.txt'), [ws, other])).toThrow(
      PathOutsideWorkspaceError,
    );
  });

  it('refuses everything when there are no folders', () => {
    expect(() => resolveInsideWorkspace(path.join(ws, 'inside.txt'), [])).toThrow(PathOutsideWorkspaceError);
  });

  it('PathOutsideWorkspaceError is an Error and names the path', () => {
    try {
      resolveInsideWorkspace('/etc/passwd', [ws]);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(Error);
      expect(messageOf(error)).toContain('/etc/passwd');
    }
  });
});

describe('isCanonicalInsideWorkspace', () => {
  it('takes a canonical path inside a plainly written folder as inside, and a sibling with its prefix as not', () => {
    expect(isCanonicalInsideWorkspace(path.join(ws, 'sub', 'deep.txt'), [ws])).toBe(true);
    expect(isCanonicalInsideWorkspace(ws, [ws])).toBe(true);
    expect(isCanonicalInsideWorkspace(`${ws}2/x.txt`, [ws])).toBe(false);
    expect(isCanonicalInsideWorkspace(path.join(outside, 'secret.txt'), [ws])).toBe(false);
  });

  it('resolves a folder that is not written plainly, or is a symlink, as isInsideWorkspace does', () => {
    const linkedWs = path.join(root, 'ws-link');
    symlinkSync(ws, linkedWs);
    const deep = path.join(ws, 'sub', 'deep.txt');
    for (const folder of [`${ws}${path.sep}`, path.join(ws, 'sub', '..'), linkedWs]) {
      expect(isCanonicalInsideWorkspace(deep, [folder])).toBe(true);
      expect(isCanonicalInsideWorkspace(path.join(outside, 'secret.txt'), [folder])).toBe(false);
    }
    // Written with `..` after a symlink: the kernel climbs from the link's target (here `outside`), while
    // the text climbs back to the workspace.
    mkdirSync(path.join(outside, 'deep'));
    const linkToDeep = path.join(ws, 'to-deep');
    symlinkSync(path.join(outside, 'deep'), linkToDeep);
    const climbing = `${linkToDeep}${path.sep}..`;
    expect(isCanonicalInsideWorkspace(path.join(ws, 'inside.txt'), [climbing])).toBe(false);
    expect(isCanonicalInsideWorkspace(path.join(outside, 'secret.txt'), [climbing])).toBe(true);
  });

  it('does not take the name of an unlinked folder for a canonical path', () => {
    const linkedWs = path.join(root, 'ws-link');
    symlinkSync(ws, linkedWs);
    // Textually inside the link, but the link is no real folder there: judged by resolving it.
    expect(isCanonicalInsideWorkspace(path.join(linkedWs, 'gone (deleted)'), [linkedWs])).toBe(false);
    expect(isCanonicalInsideWorkspace(path.join(ws, 'gone (deleted)'), [ws])).toBe(true);
  });
});
