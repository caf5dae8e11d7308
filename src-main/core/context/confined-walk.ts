/**
 * Walks a folder inside the workspace for the context services (get_folder_content, search_workspace…),
 * with the rules of every other read, checked at the moment of reading:
 * - each folder is opened once (O_NOFOLLOW, O_DIRECTORY) and checked to be inside a workspace folder by
 *   the path the kernel gives for the descriptor (confined-directory.ts); a folder swapped for a link
 *   while the walk runs is refused, never followed;
 * - files are yielded with their opened folder, so the reader reads them through it (readListedFileIn:
 *   the listing's entry type is the look before the open, then O_NOFOLLOW | O_NONBLOCK, fstat), a FIFO
 *   never blocks and a link swapped in is refused;
 * - symbolic links are never followed (a link inside pointing outside is left out, said so), nor are
 *   FIFOs, sockets and devices;
 * - each folder's .gitignore is read through the same opened folder before its entries are judged.
 * Names are visited sorted, folders depth first, so answers come in a stable order.
 */
import type { Dirent } from 'node:fs';
import path from 'node:path';
import { ConfinedDirectory, UnsafeEntryError } from '../disk/confined-directory';
import { readSnapshotIn } from '../disk/disk-snapshot';
import { PathOutsideWorkspaceError } from '../workspace/workspace-paths';
import { MAX_GITIGNORE_BYTES, type IgnoreRules } from '../watch/ignore-rules';
import { messageOf } from '../../../shared/error-message';

export type WalkSkipReason = 'symlink' | 'special_file' | 'unreadable' | 'outside_workspace' | 'walk_limit';

export type WalkItem =
  | {
      kind: 'file';
      /** Open while the item is being handled: read the file through it (readListedFileIn). */
      directory: ConfinedDirectory;
      name: string;
      /** Absolute real path. */
      path: string;
      /** From the walk's start, with "/" separators. */
      relative: string;
    }
  | { kind: 'skip'; path: string; reason: WalkSkipReason; note: string };

export interface WalkOptions {
  folders: readonly string[];
  /** The ignore rules to judge entries by; each folder's .gitignore is added as it is reached. */
  rules?: IgnoreRules | undefined;
  /** Entries looked at, at most; past it one 'walk_limit' skip says so and the walk ends. */
  maxEntries: number;
  /** `Date.now()` past which the walk ends the same way. */
  deadline: number;
}

/**
 * Listing and reading are direct system calls (each takes microseconds), so a walk would hold the event
 * loop from start to end: between folders, and every few entries inside a big one, it lets other work
 * run once this long has passed. (The context commands walk in worker threads, context-pool.ts; this
 * keeps a walk on any thread from holding it for a whole 100,000-entry folder.)
 */
const EVENT_LOOP_TURN_MS = 10;

/** Entries handled between two looks at the clock inside a folder. */
const ENTRIES_PER_CLOCK_LOOK = 256;

/** Lets other work run when the last turn was more than EVENT_LOOP_TURN_MS ago; the time of the last. */
async function turnIfDue(lastTurn: number): Promise<number> {
  if (performance.now() - lastTurn <= EVENT_LOOP_TURN_MS) return lastTurn;
  await new Promise((resolve) => setImmediate(resolve));
  return performance.now();
}

/** Walks `start` (a real path inside the workspace). */
export async function* confinedWalk(start: string, options: WalkOptions): AsyncGenerator<WalkItem> {
  const stack = [start];
  let seen = 0;
  let lastTurn = performance.now();
  while (stack.length > 0) {
    const folder = stack.pop()!;
    if (seen >= options.maxEntries || Date.now() > options.deadline) {
      const why = seen >= options.maxEntries ? `${options.maxEntries} entries` : 'the time limit';
      yield {
        kind: 'skip',
        path: folder,
        reason: 'walk_limit',
        note: `not reached: the walk stopped at ${why}`,
      };
      return;
    }
    lastTurn = await turnIfDue(lastTurn);
    const opened = await openFolder(folder, options.folders);
    if ('skip' in opened) {
      yield opened.skip;
      continue;
    }
    const { directory } = opened;
    try {
      let entries: Dirent[];
      try {
        entries = await directory.listEntries();
      } catch (error) {
        yield { kind: 'skip', path: folder, reason: 'unreadable', note: messageOf(error) };
        continue;
      }
      seen += entries.length;
      entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      if (options.rules && entries.some((entry) => entry.name === '.gitignore')) {
        options.rules.setRules(directory.realPath, await rulesTextIn(directory));
      }
      const ignores = options.rules?.folderJudge(directory.realPath);
      const subfolders: string[] = [];
      const prefix = path.relative(start, directory.realPath).split(path.sep).join('/');
      // A canonical folder path and a plain name: joined without path.join's normalizing, per entry.
      const base = directory.realPath.endsWith(path.sep) ? directory.realPath : directory.realPath + path.sep;
      for (let i = 0; i < entries.length; i++) {
        if (i % ENTRIES_PER_CLOCK_LOOK === ENTRIES_PER_CLOCK_LOOK - 1) lastTurn = await turnIfDue(lastTurn);
        const entry = entries[i]!;
        const full = base + entry.name;
        const isFolder = entry.isDirectory();
        if (ignores?.(entry.name, isFolder)) continue;
        if (isFolder) subfolders.push(full);
        else if (entry.isFile()) {
          const relative = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
          yield { kind: 'file', directory, name: entry.name, path: full, relative };
        } else yield skipOf(entry, full);
      }
      for (let i = subfolders.length - 1; i >= 0; i--) stack.push(subfolders[i]!);
    } finally {
      await directory.close();
    }
  }
}

async function openFolder(
  folder: string,
  folders: readonly string[],
): Promise<{ directory: ConfinedDirectory } | { skip: WalkItem }> {
  try {
    return { directory: await ConfinedDirectory.open(folder, folders) };
  } catch (error) {
    const message = messageOf(error);
    if (error instanceof PathOutsideWorkspaceError) {
      return { skip: { kind: 'skip', path: folder, reason: 'outside_workspace', note: message } };
    }
    if (error instanceof UnsafeEntryError) {
      const note = 'replaced by a symbolic link while the walk ran (not followed)';
      return { skip: { kind: 'skip', path: folder, reason: 'symlink', note } };
    }
    return { skip: { kind: 'skip', path: folder, reason: 'unreadable', note: message } };
  }
}

/** A folder's .gitignore, read through the opened folder; anything but a small text file has no rules. */
export async function rulesTextIn(directory: ConfinedDirectory): Promise<string> {
  try {
    const snapshot = await readSnapshotIn(directory, '.gitignore', MAX_GITIGNORE_BYTES);
    return snapshot.exists && snapshot.kind === 'text' ? snapshot.text : '';
  } catch {
    return '';
  }
}

function skipOf(entry: Dirent, full: string): WalkItem {
  if (entry.isSymbolicLink()) {
    return { kind: 'skip', path: full, reason: 'symlink', note: 'symbolic link (not followed)' };
  }
  const what = entry.isFIFO()
    ? 'a named pipe (FIFO)'
    : entry.isSocket()
      ? 'a socket'
      : entry.isCharacterDevice() || entry.isBlockDevice()
        ? 'a device'
        : 'not a regular file';
  return { kind: 'skip', path: full, reason: 'special_file', note: `${what}, not read` };
}
