import path from 'node:path';

/** Paths inside a workspace are shown relative to it; others as given. */
export function displayPath(filePath: string, folders: readonly string[]): string {
  for (const folder of folders) {
    const relative = path.relative(folder, filePath);
    if (relative && !relative.startsWith('..') && !path.isAbsolute(relative)) return relative;
  }
  return filePath;
}
