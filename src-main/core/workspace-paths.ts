/**
 * Decides whether a path a client names is inside one of the workspace folders.
 * Symlinks are resolved first, so a link inside the workspace pointing outside it is refused.
 */
import { realpathSync } from 'node:fs';
import path from 'node:path';

export class PathOutsideWorkspaceError extends Error {}

/** Resolve symlinks of the longest existing prefix; the rest of the path (a new file) is kept as given. */
export function resolveRealPath(target: string): string {
  const absolute = path.resolve(target);
  const missing: string[] = [];
  let existing = absolute;
  for (;;) {
    try {
      return path.join(realpathSync.native(existing), ...missing.reverse());
    } catch {
      const parent = path.dirname(existing);
      if (parent === existing) return absolute;
      missing.push(path.basename(existing));
      existing = parent;
    }
  }
}

export function isInside(folder: string, target: string): boolean {
  const relative = path.relative(folder, target);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/** Returns the real path of `target` if it lies in one of `folders`; throws otherwise. */
export function resolveInsideWorkspace(target: string, folders: readonly string[]): string {
  if (!path.isAbsolute(target)) {
    throw new PathOutsideWorkspaceError(`Path must be absolute: ${target}`);
  }
  const real = resolveRealPath(target);
  if (!folders.some((folder) => isInside(resolveRealPath(folder), real))) {
    throw new PathOutsideWorkspaceError(`Path is outside the workspace folders: ${target}`);
  }
  return real;
}
