/**
 * get_file_tree's walk of a folder outside git: the names of its files, walked confined (confined-walk.ts:
 * links and special files are never followed, a folder swapped for a link while the walk runs is
 * refused), leaving out `.git`, `node_modules` and what the .gitignore files found on the way say. Run in
 * a context worker (context-pool.ts), never on the thread that answers the window.
 */
import { CONTEXT_MAX_WALK_ENTRIES, CONTEXT_MAX_WALK_MS } from '../../../shared/limits';
import { IgnoreRules } from '../watch/ignore-rules';
import { confinedWalk } from './confined-walk';
import { filterTypeOf } from './context-folders';

export interface FileTreeWalk {
  /** Paths relative to the folder, with "/" separators, in the walk's order. */
  files: string[];
  filterType: 'gitignore' | 'default';
  /** The walk's own bounds (entries looked at, time) ended it before `limit` files were found. */
  stopped: boolean;
}

/** Up to `limit` files under `folder` (a real path inside one of `folders`). */
export async function walkFileTree(
  folder: string,
  folders: readonly string[],
  limit: number,
): Promise<FileTreeWalk> {
  const rules = new IgnoreRules(folder);
  const files: string[] = [];
  let stopped = false;
  const items = confinedWalk(folder, {
    folders,
    rules,
    maxEntries: CONTEXT_MAX_WALK_ENTRIES,
    deadline: Date.now() + CONTEXT_MAX_WALK_MS,
  });
  for await (const item of items) {
    // Links, FIFOs, sockets and devices are left out, as are folders that turned into links.
    if (item.kind === 'skip') stopped ||= item.reason === 'walk_limit';
    else if (files.push(item.relative) >= limit) break;
  }
  return { files, filterType: filterTypeOf(rules), stopped };
}
