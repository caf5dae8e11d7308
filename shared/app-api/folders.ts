/**
 * The folders DiffTray works in: the workspace, and the folders whose changes on disk are reviewed
 * (watch mode), with what keeps a watched folder from being reviewed in full.
 */
import { z } from 'zod';
import { pathField } from '../field-limits';
import { answers, type CallSpec } from './call-spec';

/**
 * A watched folder (watch mode) whose changes on disk are not all being reviewed now, and why. Its
 * switch still says "on": this says what it cannot do.
 */
export interface WatchFolderIssue {
  folder: string;
  /**
   * Reviewing is paused because a limit was reached (files in one review, bytes or reviews waiting).
   * Changes since are held, neither reviewed nor taken as reviewed: their baselines stay where the
   * person last decided. Resuming (setFolderWatched(folder, true)) reviews them.
   */
  paused?: { reason: string; since: number; heldChanges: number };
  /** Folders inside it the system would not watch (fs.watch failed): changes there are not seen. */
  unwatched?: WatchUnwatched;
}

/** Folders inside a watched folder that could not be watched, the first one's error, and the fix. */
export interface WatchUnwatched {
  count: number;
  /** The first folder that failed, and the system's error (ENOSPC, EMFILE...). */
  first: string;
  reason: string;
  code?: string;
  fix?: WatchFix;
}

/** How to lift a system limit: what it is, the commands (as root), and what to do after. */
export interface WatchFix {
  explain: string;
  commands: string[];
  then: string;
}

/** The calls that change the workspace and the watched folders. */
export const folderCalls = {
  /**
   * Turns "Review changes on disk" (watch mode) on or off for a folder inside the workspace, remembered
   * in the settings; answers the folders watched after.
   */
  setFolderWatched: {
    params: z.object({ folder: pathField().min(1), watched: z.boolean() }),
    result: answers<string[]>(),
  },
  /**
   * Adds a folder to the workspace (and settings.json); every lock and discovery file is rewritten at
   * once. Answers the workspace folders. Refused with the reason: not a folder, the filesystem root, a
   * system folder, or the settings file cannot be written.
   */
  addWorkspaceFolder: {
    params: z.object({ folder: pathField().min(1) }),
    result: answers<string[]>(),
  },
  /** Removes a folder from the workspace (and settings.json); lock files are rewritten. Answers the rest. */
  removeWorkspaceFolder: {
    params: z.object({ folder: pathField().min(1) }),
    result: answers<string[]>(),
  },
  /**
   * The native folder picker (desktop app only): the folder chosen, or null when the person cancelled.
   * Refused in a browser, which types the path instead.
   */
  pickFolder: {
    params: z.object({}),
    result: answers<string | null>(),
  },
} satisfies Record<string, CallSpec>;
