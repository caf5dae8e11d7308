/** Paths under the person's home folder shown as `~/…`: shorter, and what people type. */
import { useCallback } from 'react';
import { useAppStore } from './store';

/** `path` with the home folder written `~` when it lies inside it (either separator); otherwise as given. */
export function homePath(path: string, homeFolder: string | undefined): string {
  const home = homeFolder?.replace(/[\\/]+$/, '');
  if (!home) return path;
  if (path === home) return '~';
  const rest = path.slice(home.length);
  return path.startsWith(home) && (rest.startsWith('/') || rest.startsWith('\\')) ? `~${rest}` : path;
}

/** homePath with the home folder main reported (AppSnapshot.homeFolder). */
export function useHomePath(): (path: string) => string {
  const homeFolder = useAppStore((s) => s.snapshot?.homeFolder);
  return useCallback((path: string) => homePath(path, homeFolder), [homeFolder]);
}
