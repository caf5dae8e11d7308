/**
 * Decides whether a path a client names is inside one of the workspace folders.
 *
 * Paths are resolved the way the kernel resolves them, one segment at a time: a symlink is followed where
 * it stands, and a `..` after it climbs from the link's target, not from the link's name. So
 * `<ws>/link-to-home/../.ssh/id_rsa` is the file in the home folder (outside), never `<ws>/.ssh/id_rsa`.
 * Callers read and write the path this returns, never the one they were given: what was checked is
 * what is used. (The file operations check again at the moment of use: see confined-directory.ts.)
 */
import { lstatSync, readlinkSync, realpathSync } from 'node:fs';
import path from 'node:path';

export class PathOutsideWorkspaceError extends Error {}

/** realpath(3), where it resolves as the kernel does (POSIX; Windows' final-path lookup differs). */
const nativeRealPath = process.platform === 'win32' ? undefined : realpathSync.native;

/** More links than this in one path is a loop, as the OS itself judges (ELOOP). */
const MAX_LINK_HOPS = 40;

/**
 * The real path of `target`: symlinks of the existing part resolved, the missing rest (a new file or
 * folder) kept as given. A dangling symlink is followed: writing through it would create its target,
 * so its target is what must be checked.
 */
export function resolveRealPath(target: string): string {
  return resolve(target).real;
}

/** The real path, and whether realpath(3) gave it (then it is canonical: see isCanonicalInsideWorkspace). */
function resolve(target: string): { real: string; canonical: boolean } {
  const absolute = path.isAbsolute(target) ? target : path.join(process.cwd(), target);
  if (nativeRealPath) {
    // A path that exists all the way: the C library resolves it as the kernel does, in one call instead
    // of an lstat per segment. Anything else (a missing part, a dangling link, a loop) is walked below.
    try {
      return { real: nativeRealPath(absolute), canonical: true };
    } catch {
      // Walked below.
    }
  }
  const { root } = path.parse(absolute);
  return {
    real: walk(root, segmentsOf(absolute.slice(root.length)), { hops: 0, input: target }),
    canonical: false,
  };
}

function segmentsOf(rest: string): string[] {
  return rest.split(/[\\/]+/).filter((segment) => segment !== '' && segment !== '.');
}

function walk(start: string, segments: string[], state: { hops: number; input: string }): string {
  let current = start;
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]!;
    if (segment === '..') {
      current = path.dirname(current);
      continue;
    }
    const next = path.join(current, segment);
    let link: string | undefined;
    try {
      const stats = lstatSync(next);
      link = stats.isSymbolicLink() ? readlinkSync(next) : undefined;
    } catch {
      // Missing from here on: nothing exists below, so the rest is taken as written (a `..` in it
      // only climbs back through names that do not exist yet).
      return path.join(next, ...segments.slice(i + 1));
    }
    if (link === undefined) {
      current = next;
      continue;
    }
    if (++state.hops > MAX_LINK_HOPS) {
      throw new PathOutsideWorkspaceError(`Too many symbolic links: ${state.input}`);
    }
    const linkRoot = path.isAbsolute(link) ? path.parse(link).root : current;
    const relative = path.isAbsolute(link) ? link.slice(linkRoot.length) : link;
    current = walk(linkRoot, segmentsOf(relative), state);
  }
  return current;
}

export function isInside(folder: string, target: string): boolean {
  const relative = path.relative(folder, target);
  return (
    relative === '' ||
    (relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative))
  );
}

/** Whether a real path lies in one of the workspace folders (themselves resolved). */
export function isInsideWorkspace(realPath: string, folders: readonly string[]): boolean {
  return folders.some((folder) => isInside(resolveRealPath(folder), realPath));
}

/**
 * `isInsideWorkspace` for a canonical path: one the kernel (/proc/self/fd) or realpath(3) gave just now,
 * with no symlink, `.` or `..` left in it. Every folder on such a path is, at that moment, a real
 * directory at that very path; so a canonical path that lies, as text, in a folder written plainly
 * (absolute, normalized) lies in that folder's real path, and the folder need not be resolved again.
 * Anything else is judged by resolving the folders. An unlinked directory's path ("… (deleted)") is not
 * taken as canonical.
 */
export function isCanonicalInsideWorkspace(canonical: string, folders: readonly string[]): boolean {
  const plainlyInside =
    !canonical.endsWith(' (deleted)') &&
    folders.some((folder) => isPlainFolder(folder) && isInside(folder, canonical));
  return plainlyInside || isInsideWorkspace(canonical, folders);
}

function isPlainFolder(folder: string): boolean {
  return (
    path.isAbsolute(folder) &&
    path.normalize(folder) === folder &&
    (folder === path.parse(folder).root || !folder.endsWith(path.sep))
  );
}

/** Returns the real path of `target` if it lies in one of `folders`; throws otherwise. */
export function resolveInsideWorkspace(target: string, folders: readonly string[]): string {
  if (!path.isAbsolute(target)) {
    throw new PathOutsideWorkspaceError(`Path must be absolute: ${target}`);
  }
  if (target.includes('\0')) throw new PathOutsideWorkspaceError('A path contains a NUL character');
  const { real, canonical } = resolve(target);
  if (!(canonical ? isCanonicalInsideWorkspace(real, folders) : isInsideWorkspace(real, folders))) {
    throw new PathOutsideWorkspaceError(`Path is outside the workspace folders: ${target}`);
  }
  return real;
}

/**
 * `given` taken relative to `base` without collapsing `..` first (path.resolve would climb from the
 * name of a symlinked folder; the kernel climbs from its target).
 */
export function joinUnresolved(base: string, given: string): string {
  return path.isAbsolute(given) ? given : `${base}${path.sep}${given}`;
}
