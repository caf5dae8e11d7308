import path from 'node:path';
import { isInside } from '../core/workspace/workspace-paths';

/** Paths inside a workspace are shown relative to it; others as given. */
export function displayPath(filePath: string, folders: readonly string[]): string {
  const folder = folders.find((candidate) => candidate !== filePath && isInside(candidate, filePath));
  return folder === undefined ? filePath : path.relative(folder, filePath);
}
