/** Everything the app knows, behind one object: the queue, the clients, the workspace folders. */
import type { AppChange, AppSnapshot, WatchFolderIssue } from '../../shared/app-api';
import { FileWriter } from './disk/file-writer';
import type { OnScreen } from './review/on-screen';
import type { AgentHooksContext } from './setup/agent-setup';
import { ClientRegistry } from './clients/client-registry';
import { AgentTurns } from './turns/agent-turns';
import { ConnectionRequests, type ConnectionRequestsOptions } from './clients/connection-requests';
import type { Pairing } from './pairing/pairing';
import { ReviewQueue } from './review/review-queue';
import { ReviewWatcher } from './disk/review-watcher';
import { StateFeed, type StateSubscription } from './state-feed';
import { UndoJournal, type UndoSet } from './undo/undo-journal';
import { WriteUndo } from './undo/undo-writes';
import { WriteJournal } from './undo/write-journal';
import { WorkspaceFolders } from './workspace/workspace-folders';
import { isInsideWorkspace } from './workspace/workspace-paths';
import { followSettings } from './settings/settings-follow';
import type { SettingsStore } from './settings/settings-store';
import type { UndoableWrites } from '../../shared/app-api';

export interface AppCoreOptions {
  now?: () => number;
  /** Where notes of in-flight writes are kept for crash recovery (write-journal.ts); none in unit tests. */
  writeJournalDir?: string;
  /** Where a review's writes are kept for undo (undo-journal.ts); none: in memory only (unit tests). */
  undoJournalDir?: string;
  /** Where core's own messages go (an undo journal file ignored, a write not kept for undo). */
  log?: (message: string) => void;
  /** The home, environment and hook command for setting up each agent's hooks from the app. */
  agentHooks?: AgentHooksContext;
  /** Connection prompts for clients without a token: remembered programs, where to save them, the time limit. */
  connectionRequests?: ConnectionRequestsOptions;
  /**
   * settings.json (the runtime's store): its settings go to the windows, paused clients are remembered
   * in it, and its `autoApply` accepts reviews as they arrive. None in unit tests: no settings at all.
   */
  settings?: SettingsStore;
  /** The person's home folder, which the windows shorten to `~` in the paths they show. */
  homeFolder?: string;
}

export class AppCore {
  readonly queue: ReviewQueue;
  readonly clients: ClientRegistry;
  /** The agents' turns, followed through their hooks for the turn review. */
  readonly turns: AgentTurns;
  /** The one writer: every file change DiffTray itself makes goes through it. */
  readonly writer: FileWriter;
  /** Where the agents' hook files are and what `agentHooksSetup` writes; none when the runtime did not say. */
  readonly agentHooks: AgentHooksContext | undefined;
  /** Clients without a token waiting for the person's answer, and the programs allowed always. */
  readonly connectionRequests: ConnectionRequests;
  /** What DiffTray wrote for each review, kept to be undone ("Undo changes on disk"). */
  readonly undoJournal: UndoJournal;
  /** Undoing a review's writes (AppApi.undoWrites). */
  readonly writeUndo: WriteUndo;
  /** settings.json, when the runtime keeps one (settings-store.ts). */
  readonly settings: SettingsStore | undefined;
  private watcher: ReviewWatcher | undefined;
  private readonly feed: StateFeed;
  /** Changed in Settings while DiffTray runs; every part reads them at the moment of use. */
  private readonly workspace: WorkspaceFolders;
  private readonly watchedListeners = new Set<(folders: readonly string[]) => void>();

  constructor(
    workspaceFolders: readonly string[],
    {
      now = Date.now,
      writeJournalDir,
      undoJournalDir,
      log = () => {},
      agentHooks,
      connectionRequests,
      settings,
      homeFolder,
    }: AppCoreOptions = {},
  ) {
    this.workspace = new WorkspaceFolders(workspaceFolders);
    const folders = () => this.workspace.list;
    this.agentHooks = agentHooks;
    this.settings = settings;
    this.connectionRequests = new ConnectionRequests({ now, ...connectionRequests });
    this.undoJournal = new UndoJournal(undoJournalDir, { now, log });
    this.writer = new FileWriter(folders, new WriteJournal(writeJournalDir), this.undoJournal, log);
    this.queue = new ReviewQueue(now);
    this.clients = new ClientRegistry(now);
    this.turns = new AgentTurns(now);
    this.feed = new StateFeed(
      this.queue,
      this.clients,
      workspaceFolders,
      this.connectionRequests,
      homeFolder,
    );
    this.writeUndo = new WriteUndo(this.undoJournal, this.writer, this.queue, this.clients, folders);
    this.workspace.onChange((now) => this.feed.setWorkspaceFolders(now));
    const showUndoable = () => this.feed.setUndoableWrites(this.undoJournal.sets().map(asUndoable));
    this.undoJournal.onChange(showUndoable);
    if (this.undoJournal.sets().length > 0) showUndoable();
    if (settings) followSettings(settings, this.queue, this.feed, log);
  }

  /** The workspace folders now (real paths): read them at the moment of use, never keep a copy. */
  get workspaceFolders(): readonly string[] {
    return this.workspace.list;
  }

  /**
   * Makes `folders` (real paths) the workspace. Pending reviews of files outside it are cancelled, as
   * nothing may be written there any more; whoever listens (lock files, watch mode) is told.
   */
  setWorkspaceFolders(folders: readonly string[]): void {
    if (!this.workspace.replace(folders)) return;
    this.queue.cancelWhere(
      (request) =>
        request.remote === undefined &&
        request.files.some((file) => !isInsideWorkspace(file.path, this.workspace.list)),
      'its folder was removed from the workspace in DiffTray',
    );
  }

  /** Called with the workspace folders each time they change; returns the way to stop. */
  onWorkspaceFolders(listener: (folders: readonly string[]) => void): () => void {
    return this.workspace.onChange(listener);
  }

  /** Cancels the client's pending reviews (nobody is left to answer them); returns how many. */
  cancelReviewsOf(clientId: string, reason: string): number {
    return this.queue.cancelWhere((request) => request.client.id === clientId, reason);
  }

  /** A client went away: its pending reviews are cancelled and it leaves Connections. */
  clientGone(clientId: string, reason = 'client disconnected'): void {
    this.cancelReviewsOf(clientId, reason);
    this.clients.disconnect(clientId);
  }

  /** Watch mode now watches `folders`: every window is told, and whoever listens (onWatchedFolders). */
  noteWatchedFolders(folders: readonly string[]): void {
    this.feed.setWatchedFolders(folders);
    for (const listener of this.watchedListeners) listener(folders);
  }

  /** Watch mode's folders that are paused or partly unwatched now: every window is told. */
  noteWatchIssues(issues: readonly WatchFolderIssue[]): void {
    this.feed.setWatchIssues(issues);
  }

  /** Called with the watched folders each time they change; returns the way to stop. */
  onWatchedFolders(listener: (folders: readonly string[]) => void): () => void {
    this.watchedListeners.add(listener);
    return () => this.watchedListeners.delete(listener);
  }

  /** The review (and file) the person looks at now, as the windows named it (on-screen.ts). */
  get onScreen(): OnScreen {
    return this.feed.onScreen;
  }

  /** The paired clients or the pairing state changed: every window is told. */
  notePairing(pairing: Pairing): void {
    this.feed.setPairing(pairing.list(), pairing.state());
  }

  /** Starts watching the files under review on disk (the runtime does; unit tests may not need it). */
  watchFiles(): void {
    this.watcher ??= new ReviewWatcher(this.queue, () => this.workspace.list);
  }

  async close(): Promise<void> {
    this.connectionRequests.close();
    this.undoJournal.close();
    await this.watcher?.close();
    this.watcher = undefined;
  }

  /** The whole state, at the version of the change stream it is at. */
  snapshot(): AppSnapshot {
    return this.feed.snapshot();
  }

  /**
   * The change stream: one versioned change per burst of changes, with only what changed (state-feed.ts).
   * A window subscribes once and names the review on screen with `focus`.
   */
  subscribe(listener: (change: AppChange) => void): StateSubscription {
    return this.feed.subscribe(listener);
  }

  /** How many windows follow the change stream now. */
  get subscriberCount(): number {
    return this.feed.subscriberCount;
  }
}

/** A journaled set as the app lists it: a review of this run is named by its review id. */
function asUndoable(set: UndoSet): UndoableWrites {
  return {
    id: set.thisRun ? set.reviewId : set.setId,
    reviewId: set.reviewId,
    thisRun: set.thisRun,
    writtenAt: set.writtenAt,
    files: set.files,
    ...(set.spent && { spent: true as const }),
  };
}
