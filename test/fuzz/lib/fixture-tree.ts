/**
 * The folders a fuzz run works in: a workspace with a few files (and a symlink that leads out of it), and
 * a sibling "outside" folder with sentinel files. Both are hashed before and after: nothing may change.
 */
import { createHash, randomBytes } from 'node:crypto';
import {
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';

export interface FixtureTree {
  root: string;
  workspace: string;
  outside: string;
  /** Inside the outside folder's files only: seeing it in any answer means outside content leaked. */
  secretMarker: string;
  /** Workspace files, relative. */
  files: string[];
  /** Names in the workspace that are symlinks leading outside it. */
  symlinks: string[];
}

export function createFixtureTree(root: string): FixtureTree {
  const real = realpathSync(root);
  const workspace = path.join(real, 'workspace');
  const outside = path.join(real, 'outside');
  for (const dir of [workspace, outside, path.join(workspace, 'src'), path.join(workspace, 'sub')]) {
    mkdirSync(dir, { recursive: true });
  }
  const secretMarker = `DIFFTRAY-FUZZ-SECRET-${randomBytes(8).toString('hex')}`;
  const files: Record<string, string> = {
    'a.txt': 'alpha\nbeta\ngamma\n',
    'src/main.ts': 'export const answer = 42;\n',
    'sub/notes.md': '# Notes\n\n- one\n- two\n',
    'empty.txt': '',
  };
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(workspace, name), text);
  writeFileSync(path.join(outside, 'secret.txt'), `${secretMarker}\nprivate key material\n`);
  writeFileSync(path.join(outside, 'victim.txt'), `${secretMarker}\nmust never be written\n`);
  mkdirSync(path.join(outside, 'dir'));
  writeFileSync(path.join(outside, 'dir', 'inner.txt'), `${secretMarker}\ninner\n`);
  // A folder symlink and a file symlink that lead out of the workspace.
  symlinkSync(outside, path.join(workspace, 'link-out'));
  symlinkSync(path.join(outside, 'victim.txt'), path.join(workspace, 'victim-link.txt'));
  return {
    root: real,
    workspace,
    outside,
    secretMarker,
    files: Object.keys(files),
    symlinks: ['link-out', 'victim-link.txt'],
  };
}

/** Every entry under the workspace and the outside folder: type, and the sha256 or link target. */
export type TreeHashes = Map<string, string>;

export function hashTrees(tree: FixtureTree): TreeHashes {
  const hashes: TreeHashes = new Map();
  for (const [label, dir] of [
    ['workspace', tree.workspace],
    ['outside', tree.outside],
  ] as const) {
    walk(dir, `${label}/`, hashes);
  }
  return hashes;
}

function walk(dir: string, prefix: string, into: TreeHashes): void {
  for (const name of readdirSync(dir).sort()) {
    const full = path.join(dir, name);
    const key = prefix + name;
    const stat = lstatSync(full);
    if (stat.isSymbolicLink()) into.set(key, `link:${readlinkSync(full)}`);
    else if (stat.isDirectory()) {
      into.set(key, 'dir');
      walk(full, `${key}/`, into);
    } else if (stat.isFile()) {
      into.set(key, `file:${createHash('sha256').update(readFileSync(full)).digest('hex')}`);
    } else into.set(key, `other:${stat.mode}`);
  }
}

/** What differs between two hashings: added, removed or changed entries. */
export function changedEntries(before: TreeHashes, after: TreeHashes): string[] {
  const changed: string[] = [];
  for (const [key, value] of before) {
    const now = after.get(key);
    if (now === undefined) changed.push(`removed ${key}`);
    else if (now !== value) changed.push(`changed ${key}`);
  }
  for (const key of after.keys()) if (!before.has(key)) changed.push(`added ${key}`);
  return changed;
}
