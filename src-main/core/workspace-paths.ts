/**
 * Decides whether a path a client names is inside one of the workspace folders.
 * Symlinks are resolved first, so a link inside the workspace pointing outside it is refused.
 */
import { lstatSync, readlinkSync, realpathSync } from 'node:fs';
import path from 'node:path';

export class PathOutsideWorkspaceError extends Error {}

/** More links than this in one path is a loop, as the OS itself judges (ELOOP). */
const MAX_LINK_HOPS = 40;

/**
 * Resolve symlinks of the longest existing prefix; the rest of the path (a new file) is kept as given.
 * A dangling symlink is followed by hand: writing through it would create its target, so its target is
 * what must be checked.
 */
export function resolveRealPath(target: string, hops = 0): string {
  const absolute = path.resolve(target);
  const missing: string[] = [];
  let existing = absolute;
  for (;;) {
    try {
      return path.join(realpathSync.native(existing), ...missing.reverse());
    } catch {
      const link = danglingLinkTarget(existing);
      if (link !== undefined) {
        if (hops >= MAX_LINK_HOPS) throw new PathOutsideWorkspaceError(`Too many symbolic links: ${target}`);
        return resolveRealPath(
          path.join(path.resolve(path.dirname(existing), link), ...missing.reverse()),
          hops + 1,
        );
      }
      const parent = path.dirname(existing);
      if (parent === existing) return absolute;
      missing.push(path.basename(existing));
      existing = parent;
    }
  }
}

function danglingLinkTarget(file: string): string | undefined {
  try {
    return lstatSync(file).isSymbolicLink() ? readlinkSync(file) : undefined;
  } catch {
    return undefined;
  }
}

export function isInside(folder: string, target: string): boolean {
  const relative = path.relative(folder, target);
  return (
    relative === '' ||
    (relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative))
  );
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
