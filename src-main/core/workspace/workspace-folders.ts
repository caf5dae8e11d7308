/**
 * The workspace folders while DiffTray runs. The person adds and removes them in Settings, so every
 * check reads them at the moment it is made: parts that were given the list at start take a getter
 * (`FolderList`), never a copy.
 */
import { sameValue } from '../../../shared/state-sync';

/** The folders as a list fixed for a run (the `difftray` command, tests) or read live from the app. */
export type FolderList = readonly string[] | (() => readonly string[]);

/** The folders now. */
export function foldersNow(folders: FolderList): readonly string[] {
  return typeof folders === 'function' ? folders() : folders;
}

export class WorkspaceFolders {
  private folders: readonly string[];
  private readonly listeners = new Set<(folders: readonly string[]) => void>();

  constructor(folders: readonly string[]) {
    this.folders = Object.freeze([...folders]);
  }

  get list(): readonly string[] {
    return this.folders;
  }

  /** Replaces the list; listeners hear of it when it differs. Answers whether it did. */
  replace(folders: readonly string[]): boolean {
    const next = [...new Set(folders)];
    if (sameValue(next, this.folders)) return false;
    this.folders = Object.freeze(next);
    for (const listener of this.listeners) listener(this.folders);
    return true;
  }

  /** Called with the new list each time it changes; returns the way to stop. */
  onChange(listener: (folders: readonly string[]) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
