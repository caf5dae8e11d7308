/**
 * The change stream from core to the windows (docs/ARCHITECTURE.md). Every burst of changes
 * becomes one versioned AppChange with only what changed: new reviews whole, changed reviews as the
 * fields that changed, removed ones by id. Each subscriber (a window) may name the review on screen;
 * its changes then also carry the hunks of that review that changed, found by identity (a decision
 * replaces one hunk's decisions, an edit or rebase the file's hunk list).
 */
import type {
  AppChange,
  AppSnapshot,
  DetailPatch,
  PairedClientInfo,
  PairingState,
  UndoableWrites,
  ReviewDetail,
  WatchFolderIssue,
  ReviewItem,
  ReviewPatch,
} from '../../shared/app-api';
import type { AppSettings, SettingsFileState } from '../../shared/app-settings';
import type { HunkLineDecisions } from '../../shared/line-decisions';
import { diffReview } from '../../shared/state-sync';
import type { ClientRegistry } from './clients/client-registry';
import type { ConnectionRequests } from './clients/connection-requests';
import type { FileState } from './review/review-file';
import { hunkView, hunkViews } from './review/review-file';
import { OnScreen } from './review/on-screen';
import type { ReviewQueue } from './review/review-queue';

/** One window's end of the stream. */
export interface StateSubscription {
  /**
   * Names the review on screen (null: none) and answers its hunks at the current version; later
   * changes carry what changed in them. Null for a review that is gone.
   */
  focus(reviewId: string | null, fileIndex?: number): ReviewDetail | null;
  /** The person looks at file `fileIndex` of the review this window shows (ignored for another). */
  showFile(reviewId: string, fileIndex: number): void;
  close(): void;
}

/** The hunks last sent to one window, to find what changed by identity. */
interface SentDetail {
  reviewId: string;
  revision: number;
  files: Array<{ state: FileState; lines: readonly HunkLineDecisions[] }>;
  /** The review's texts were let go and its last hunks sent: they never change again. */
  final?: true;
}

export class StateFeed {
  private version = 0;
  private readonly dirty = new Set<string>();
  private readonly removed = new Set<string>();
  private watchedFolders: string[] = [];
  private watchIssues: WatchFolderIssue[] = [];
  private undoableWrites: UndoableWrites[] = [];
  private pairedClients: PairedClientInfo[] = [];
  private pairing: PairingState = {};
  /** Where settings.json is kept by a store (the runtime): then its settings go to every window. */
  private settingsState: { settings: AppSettings; settingsFile: SettingsFileState } | undefined;
  /**
   * The parts of the state sent whole, in the snapshot and in any change after they changed: each
   * answers its fields now (copies, as a window keeps what it gets).
   */
  private readonly parts = {
    clients: () => ({ clients: this.clients.list().map((client) => ({ ...client })) }),
    paused: () => ({ pausedClients: this.queue.pausedClients() }),
    watched: () => ({
      watchedFolders: [...this.watchedFolders],
      watchIssues: structuredClone(this.watchIssues),
    }),
    workspace: () => ({ workspaceFolders: [...this.workspaceFolders] }),
    undoable: () => ({
      undoableWrites: this.undoableWrites.map((set) => ({ ...set, files: [...set.files] })),
    }),
    // Connection prompts and trusted programs change together (an "always" answer changes both).
    connectionRequests: () => ({
      connectionRequests: this.connectionRequests?.list() ?? [],
      trustedPrograms: this.connectionRequests?.trustedPrograms() ?? [],
    }),
    pairing: () => ({
      pairedClients: this.pairedClients.map((client) => ({ ...client })),
      pairing: { ...this.pairing },
    }),
    settings: () => (this.settingsState ? structuredClone(this.settingsState) : {}),
  } satisfies Record<string, () => Partial<AppSnapshot>>;
  private readonly changedParts = new Set<keyof StateFeed['parts']>();
  /** Each review as every subscriber last received it: the base of the next patch. */
  private readonly sent = new Map<string, ReviewItem>();
  private readonly subscribers = new Set<Subscriber>();
  private flushScheduled = false;
  /** The review the windows last named (focus): what the person looks at now. */
  readonly onScreen = new OnScreen();

  constructor(
    private readonly queue: ReviewQueue,
    private readonly clients: ClientRegistry,
    private workspaceFolders: readonly string[],
    private readonly connectionRequests?: ConnectionRequests,
    private readonly homeFolder?: string,
  ) {
    for (const item of queue.items()) this.sent.set(item.id, item);
    queue.onChange((change) => {
      if (change.kind === 'paused') this.changedParts.add('paused');
      else if (change.kind === 'removed') this.removed.add(change.id);
      else this.dirty.add(change.id);
      this.schedule();
    });
    clients.onChange((clientId) => {
      // A review shows its client (name, connected): each of that client's reviews may have changed.
      for (const id of queue.reviewIdsOf(clientId)) this.dirty.add(id);
      this.partChanged('clients');
    });
    connectionRequests?.onChange(() => this.partChanged('connectionRequests'));
  }

  /** The whole state at the current version (any change not yet sent is sent first). */
  snapshot(): AppSnapshot {
    this.flush();
    return {
      version: this.version,
      reviews: [...this.sent.values()],
      ...this.parts.workspace(),
      ...(this.homeFolder !== undefined && { homeFolder: this.homeFolder }),
      ...this.parts.clients(),
      ...this.parts.paused(),
      ...this.parts.watched(),
      ...this.parts.connectionRequests(),
      ...this.parts.pairing(),
      ...this.parts.undoable(),
      ...this.parts.settings(),
    };
  }

  /** The workspace folders now (the person changed them in Settings). */
  setWorkspaceFolders(folders: readonly string[]): void {
    this.workspaceFolders = [...folders];
    this.partChanged('workspace');
  }

  /** The settings and the state of their file now (settings-store.ts). */
  setSettings(settings: AppSettings, settingsFile: SettingsFileState): void {
    this.settingsState = structuredClone({ settings, settingsFile });
    this.partChanged('settings');
  }

  /** The reviews whose writes can be undone now (undo-journal.ts). */
  setUndoableWrites(sets: readonly UndoableWrites[]): void {
    this.undoableWrites = sets.map((set) => ({ ...set, files: [...set.files] }));
    this.partChanged('undoable');
  }

  /** The paired clients and the pairing state now. */
  setPairing(pairedClients: readonly PairedClientInfo[], pairing: PairingState): void {
    this.pairedClients = pairedClients.map((client) => ({ ...client }));
    this.pairing = { ...pairing };
    this.partChanged('pairing');
  }

  /** The folders watch mode watches now. */
  setWatchedFolders(folders: readonly string[]): void {
    this.watchedFolders = [...folders];
    this.partChanged('watched');
  }

  /** The watched folders whose changes are not all reviewed now (watch mode paused, or unwatched). */
  setWatchIssues(issues: readonly WatchFolderIssue[]): void {
    this.watchIssues = structuredClone([...issues]);
    this.partChanged('watched');
  }

  /** Every change from now on goes to `listener`, in order, once per burst. */
  subscribe(listener: (change: AppChange) => void): StateSubscription {
    const subscriber = new Subscriber(this, this.queue, listener);
    this.subscribers.add(subscriber);
    return {
      focus: (reviewId, fileIndex) => {
        const detail = subscriber.focus(reviewId);
        this.onScreen.show(subscriber, detail ? detail.reviewId : null, fileIndex);
        return detail;
      },
      showFile: (reviewId, fileIndex) => {
        if (this.onScreen.shownBy(subscriber)?.reviewId === reviewId) {
          this.onScreen.show(subscriber, reviewId, fileIndex);
        }
      },
      close: () => {
        this.subscribers.delete(subscriber);
        this.onScreen.release(subscriber);
      },
    };
  }

  /** How many windows follow the stream (a closed one no longer counts). */
  get subscriberCount(): number {
    return this.subscribers.size;
  }

  /** Sends what changed since the last change, now. */
  flush(): void {
    if (this.dirty.size + this.removed.size + this.changedParts.size === 0) return;
    const change: AppChange = { version: ++this.version };
    const removed = [...this.removed].filter((id) => this.sent.delete(id));
    const added: ReviewItem[] = [];
    const changed: ReviewPatch[] = [];
    for (const id of this.dirty) {
      const item = this.queue.item(id);
      if (!item) continue;
      const before = this.sent.get(id);
      if (!before) added.push(item);
      else {
        const patch = diffReview(before, item);
        if (patch) changed.push(patch);
      }
      this.sent.set(id, item);
    }
    if (added.length) change.added = added;
    if (changed.length) change.changed = changed;
    if (removed.length) change.removed = removed;
    for (const part of this.changedParts) Object.assign(change, this.parts[part]());
    const dirty = new Set(this.dirty);
    this.dirty.clear();
    this.removed.clear();
    this.changedParts.clear();
    for (const subscriber of this.subscribers) subscriber.deliver(change, dirty);
  }

  private partChanged(part: keyof StateFeed['parts']): void {
    this.changedParts.add(part);
    this.schedule();
  }

  private schedule(): void {
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    queueMicrotask(() => {
      this.flushScheduled = false;
      this.flush();
    });
  }
}

/** The hunks of a review, at the first revision; null for no review, or one that is gone. */
export function reviewDetail(queue: ReviewQueue, reviewId: string | null): ReviewDetail | null {
  const summary = reviewId === null ? undefined : queue.find(reviewId);
  return summary
    ? { reviewId: summary.id, revision: 1, files: summary.files.map((file) => file.hunks) }
    : null;
}

class Subscriber {
  private sent: SentDetail | null = null;

  constructor(
    private readonly feed: StateFeed,
    private readonly queue: ReviewQueue,
    private readonly listener: (change: AppChange) => void,
  ) {}

  focus(reviewId: string | null): ReviewDetail | null {
    // The answer must be at the version the window will have next: nothing may be left unsent.
    this.feed.flush();
    const detail = reviewDetail(this.queue, reviewId);
    const states = detail ? (this.queue.fileStates(detail.reviewId) ?? []) : [];
    this.sent = detail && {
      reviewId: detail.reviewId,
      revision: detail.revision,
      files: states.map((state) => ({ state, lines: [...state.lines] })),
    };
    return detail;
  }

  deliver(change: AppChange, dirty: ReadonlySet<string>): void {
    const detail = this.sent && dirty.has(this.sent.reviewId) ? this.detailPatch(this.sent) : undefined;
    this.listener(detail ? { ...change, detail } : change);
  }

  /** The hunks of the review on screen that changed since they were last sent. */
  private detailPatch(sent: SentDetail): DetailPatch | undefined {
    const states = this.queue.fileStates(sent.reviewId);
    if (!states) return this.finalPatch(sent);
    const files: DetailPatch['files'] = [];
    states.forEach((state, fileIndex) => {
      const before = sent.files[fileIndex];
      if (before?.state === state) return;
      if (!before || before.state.hunks !== state.hunks) {
        files.push({ fileIndex, hunks: hunkViews(state) });
      } else {
        const changed: Array<[number, ReturnType<typeof hunkView>]> = [];
        state.lines.forEach((lines, i) => {
          if (lines !== before.lines[i]) changed.push([i, hunkView(state, i)]);
        });
        if (changed.length > 0) files.push({ fileIndex, changed });
      }
      sent.files[fileIndex] = { state, lines: [...state.lines] };
    });
    return this.patch(sent, files);
  }

  /**
   * A review whose texts were let go keeps the hunks it had then, and they change no more. They are sent
   * once whole, as the same burst may have changed them (an edit, then its client gone).
   */
  private finalPatch(sent: SentDetail): DetailPatch | undefined {
    const summary = this.queue.find(sent.reviewId);
    if (sent.final || !summary) return undefined;
    sent.final = true;
    return this.patch(
      sent,
      summary.files.map((file, fileIndex) => ({ fileIndex, hunks: file.hunks })),
    );
  }

  private patch(sent: SentDetail, files: DetailPatch['files']): DetailPatch | undefined {
    if (files.length === 0) return undefined;
    const from = sent.revision;
    sent.revision += 1;
    return { reviewId: sent.reviewId, from, to: sent.revision, files };
  }
}
