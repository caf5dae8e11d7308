/**
 * The state a window shows and how it follows it: a whole snapshot, then the change stream (a change
 * per version), and the hunks of the review on screen.
 */
import { z } from 'zod';
import type { AppSettings, SettingsFileState } from '../app-settings';
import type { ConnectionRequest, PairedClientInfo, PairingState, TrustedProgram } from './access';
import { answers, fileIndexField, reviewIdField, type CallSpec } from './call-spec';
import type { ClientInfo, PausedClient } from './connections';
import type { WatchFolderIssue } from './folders';
import type { HunkView, ReviewDetail, ReviewItem } from './reviews';
import type { UndoableWrites } from './undo-writes';

/** The whole state at one version: sent on connect, and when a version gap is found. */
export interface AppSnapshot {
  /** The version of the change stream this state is at (AppChange.version). */
  version: number;
  reviews: ReviewItem[];
  clients: ClientInfo[];
  /** Clients whose reviews the person paused, connected or not (a hook connects only while it asks). */
  pausedClients: PausedClient[];
  workspaceFolders: string[];
  /** The person's home folder, so paths under it are shown as `~/…` (never changes while DiffTray runs). */
  homeFolder?: string;
  /** Folders whose changes on disk are reviewed (watch mode's "Review changes on disk"), sorted. */
  watchedFolders: string[];
  /** Watched folders whose changes are not all reviewed now (paused, or parts the system will not watch). */
  watchIssues?: WatchFolderIssue[];
  // Connection prompts (clients without a token): see ConnectionRequest.
  /** Connections without a token waiting for the person to allow them, oldest first. */
  connectionRequests: ConnectionRequest[];
  /** Programs allowed to connect without a token ("Always allow this program"). */
  trustedPrograms: TrustedProgram[];
  /** Agents on other hosts paired with DiffTray ("Pair a remote agent"). */
  pairedClients?: PairedClientInfo[];
  /** Whether a pairing code is active, and any lock-out after wrong codes. */
  pairing?: PairingState;
  /** Reviews whose writes DiffTray journaled and can take back ("Undo changes on disk"), newest first. */
  undoableWrites?: UndoableWrites[];
  /** What the Settings view shows and changes (settings.json). */
  settings?: AppSettings;
  /** The settings file, and what is wrong with it when it could not be used. */
  settingsFile?: SettingsFileState;
}

/**
 * One step of the change stream: what changed since `version - 1`. A field left out did not change.
 * Applying every change in order to a snapshot gives the same state as a fresh snapshot
 * (shared/state-sync.ts); a change whose version does not follow calls for a fresh snapshot.
 */
export interface AppChange {
  version: number;
  /** New reviews, whole, in arrival order (they come after every review listed before). */
  added?: ReviewItem[];
  /** Reviews that changed: their id and only the fields that changed. */
  changed?: ReviewPatch[];
  /** Reviews that left History. */
  removed?: string[];
  clients?: ClientInfo[];
  pausedClients?: PausedClient[];
  workspaceFolders?: string[];
  watchedFolders?: string[];
  watchIssues?: WatchFolderIssue[];
  connectionRequests?: ConnectionRequest[];
  trustedPrograms?: TrustedProgram[];
  pairedClients?: PairedClientInfo[];
  pairing?: PairingState;
  undoableWrites?: UndoableWrites[];
  settings?: AppSettings;
  settingsFile?: SettingsFileState;
  /** The hunks that changed in the review on screen (only to the one who asked, AppApi.focusReview). */
  detail?: DetailPatch;
}

/** Fields of a review that changed; optional fields that went away are named in `unset`. */
export type ReviewPatch = { id: string; unset?: Array<keyof ReviewItem> } & Partial<Omit<ReviewItem, 'id'>>;

/** Hunks that changed in the review on screen since revision `from`. */
export interface DetailPatch {
  reviewId: string;
  from: number;
  to: number;
  /** Per changed file: its new hunk list whole (after an edit or rebase), or the hunks that changed. */
  files: Array<{ fileIndex: number; hunks?: HunkView[]; changed?: Array<[number, HunkView]> }>;
}

/**
 * What a carrier delivers: a change, or the whole state (on connect, or after the window was hidden), or
 * (Electron only) a review to show, chosen in the tray menu or a notification, or the Settings view to
 * open (the tray's "Settings…").
 */
export type StateEvent =
  { change: AppChange } | { snapshot: AppSnapshot } | { show: { reviewId: string } } | { open: 'settings' };

/** The calls that fetch the state and say what the window shows. */
export const stateCalls = {
  getSnapshot: {
    params: z.object({}),
    result: answers<AppSnapshot>(),
  },
  /**
   * Names the review on screen (null: none). Answers its hunks; from then on every change carries what
   * changed in them (AppChange.detail), for this window only.
   */
  focusReview: {
    params: z.object({ reviewId: reviewIdField.nullable() }),
    result: answers<ReviewDetail | null>(),
  },
  /**
   * Which file of the review on screen the person looks at (its tab): what an agent asking for the
   * active file is told (the native get_active_file_info). Ignored for a review not on screen.
   */
  showingFile: {
    params: z.object({ reviewId: reviewIdField, fileIndex: fileIndexField }),
    result: answers<void>(),
  },
} satisfies Record<string, CallSpec>;
