/**
 * Watch mode for one workspace folder: changes on disk, gathered into bursts, become after-the-fact
 * reviews ("Changes on disk"), and their outcomes are carried out and move the baselines.
 *
 * A review's file has base = its baseline, proposal = the disk text, and onDisk = the snapshot read, so
 * core's writer reverts what was rejected only while the file still holds what was reviewed (else a
 * conflict, and the disk is left alone). A file whose disk text is its baseline is not reviewed: once an
 * outcome moves the baseline, DiffTray's own write is never reviewed again.
 *
 * Nothing is taken as reviewed: the folder has one pending review at a time, which grows while it waits
 * (a file already in it takes the new disk text as its proposal, keeping its base). When a limit is
 * reached (files in one review, the pending caps), the folder pauses: changes are held, their baselines
 * stay where the person last decided, and resuming (folder-pause.ts) reviews what changed since. A file in
 * another client's pending review waits until that review ends, then is looked at again.
 */
import path from 'node:path';
import type { ClientInfo, WatchFolderIssue } from '../../../shared/app-api';
import type { AppCore } from '../app-core';
import type { ConfinedDirectory } from '../disk/confined-directory';
import { revertOf, settleFile } from '../disk/disk-policy';
import { readSnapshotIn, sameContent, type DiskSnapshot } from '../disk/disk-snapshot';
import { MAX_FILE_BYTES, WATCH_MAX_FILES_PER_REVIEW, WATCH_QUIET_MS } from '../limits';
import {
  ReviewError,
  ReviewsPausedError,
  TooManyPendingReviewsError,
  type ReviewOutcome,
} from '../review/review-queue';
import { isInside } from '../workspace/workspace-paths';
import type { Turn } from '../turns/agent-turns';
import type { Baselines } from './baselines';
import { FolderPause } from './folder-pause';
import type { TreeWatch } from './tree-watch';
import { WatchFailures } from './watch-failures';
import {
  decided,
  diskFileOf,
  reviewDescription,
  reviewTitle,
  shownPath,
  type Reviewed,
} from './watch-review';
import { openInWatchedFolder } from './watch-folders';
import { messageOf } from '../../../shared/error-message';

export interface FolderReviewsOptions {
  quietMs?: number;
  maxFileBytes?: number;
  log?: (message: string) => void;
}

/** A burst never waits longer than this many quiet periods, however busy the disk stays. */
const MAX_BURST_QUIET_PERIODS = 8;
const ABSENT: DiskSnapshot = { exists: false };

/** The folder's pending review: its files by path, in the order the queue holds them. */
interface PendingReview {
  id: string;
  files: Map<string, Reviewed>;
}

export class FolderReviews {
  private readonly changed = new Set<string>();
  /** Changed paths held by another client's pending review, looked at again when a review ends. */
  private readonly waiting = new Set<string>();
  private quietTimer: NodeJS.Timeout | undefined;
  private burstStartedAt: number | undefined;
  /** Bursts are handled one after the other. */
  private flushing: Promise<void> = Promise.resolve();
  private closed = false;
  private pending: PendingReview | undefined;
  private readonly paused = new FolderPause();
  /** Folders inside this one that the system would not watch. */
  private readonly failures = new WatchFailures();
  private readonly quietMs: number;
  private readonly maxFileBytes: number;
  private readonly log: (message: string) => void;

  constructor(
    readonly root: string,
    private readonly core: AppCore,
    private readonly client: ClientInfo,
    private readonly baselines: Baselines,
    private readonly tree: TreeWatch,
    options: FolderReviewsOptions = {},
    /** Told when what `issue` answers changed (paused, resumed, a folder not watched). */
    private readonly onIssue: () => void = () => {},
  ) {
    this.quietMs = options.quietMs ?? WATCH_QUIET_MS;
    this.maxFileBytes = options.maxFileBytes ?? MAX_FILE_BYTES;
    this.log = options.log ?? (() => {});
  }

  /** Whether `file` is one this folder watches (inside it and not skipped). */
  covers(file: string): boolean {
    if (path.relative(this.root, file) === '' || !isInside(this.root, file)) return false;
    return !this.tree.rules.ignores(file, false);
  }

  /** What keeps this folder's changes from all being reviewed now, if anything. */
  get issue(): WatchFolderIssue | undefined {
    const paused = this.paused.state;
    const unwatched = this.failures.state;
    if (!paused && !unwatched) return undefined;
    return { folder: this.root, ...(paused && { paused }), ...(unwatched && { unwatched }) };
  }

  /** A folder inside this one could not be watched: its changes are not seen, and the window says so. */
  watchFailed(folder: string, error: Error): void {
    this.failures.note(folder, error);
    this.onIssue();
  }

  /** A file changed on disk: it joins the current burst. */
  noteChange(file: string): void {
    this.noteChanges([file]);
  }

  /**
   * The person resumes a paused folder (having dealt with its pending review): what changed while it was
   * paused is looked at, against the baselines the person last decided. Answers whether it was paused.
   */
  resume(): boolean {
    const resumed = this.paused.resume();
    if (!resumed) return false;
    this.log(`Watch mode (${this.root}): resumed`);
    // Too many to have listed: every file there now, and every file with a baseline (deleted ones too).
    this.noteChanges(
      'all' in resumed ? new Set([...this.tree.files(), ...this.baselines.knownFiles()]) : resumed.files,
    );
    this.onIssue();
    return true;
  }

  /** A review ended (any client's): the files that waited for one are looked at again. */
  reviewEnded(): void {
    if (this.waiting.size === 0) return;
    const files = [...this.waiting];
    this.waiting.clear();
    this.noteChanges(files);
  }

  /** An accepted review of another client wrote (or will write) `text` here: that is the baseline now. */
  acceptedElsewhere(file: string, text: string): void {
    this.baselines.setAccepted(file, text);
  }

  /** DiffTray itself wrote `written` here (any writer's request): that is the baseline now. */
  writtenByDiffTray(file: string, written: DiskSnapshot): void {
    this.baselines.set(file, written);
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.quietTimer);
    this.tree.close();
  }

  /** Waits for the bursts under way (tests, shutdown). */
  settled(): Promise<void> {
    return this.flushing;
  }

  /** Ends the burst under way at once, and waits until its changes were looked at. */
  flush(): Promise<void> {
    if (this.quietTimer !== undefined) {
      clearTimeout(this.quietTimer);
      this.endBurst();
    }
    return this.flushing;
  }

  private noteChanges(files: Iterable<string>): void {
    if (this.closed) return;
    for (const file of files) this.changed.add(file);
    if (this.changed.size === 0) return;
    const now = Date.now();
    this.burstStartedAt ??= now;
    clearTimeout(this.quietTimer);
    const waited = now - this.burstStartedAt;
    const delay = Math.max(0, Math.min(this.quietMs, this.quietMs * MAX_BURST_QUIET_PERIODS - waited));
    this.quietTimer = setTimeout(() => this.endBurst(), delay);
  }

  private endBurst(): void {
    this.quietTimer = undefined;
    this.burstStartedAt = undefined;
    const files = [...this.changed].sort();
    this.changed.clear();
    this.flushing = this.flushing
      .then(() => this.review(files))
      .catch((error: unknown) => {
        this.log(`Watch mode (${this.root}): ${messageOf(error)}`);
      });
  }

  /**
   * Puts the burst's changed files up for review, those that differ from their baselines: into the
   * folder's pending review while there is one, else a new one. Held instead while paused, and past
   * the files one review may hold (the folder then pauses).
   */
  private async review(files: readonly string[]): Promise<void> {
    if (this.paused.isPaused) {
      this.hold(files);
      return;
    }
    const pending = this.livePending();
    let room = WATCH_MAX_FILES_PER_REVIEW - (pending?.files.size ?? 0);
    const reviewed: Reviewed[] = [];
    const beyond: string[] = [];
    const notes: string[] = [];
    // In git, the index texts the burst needs, read in one batch rather than a process per file.
    await this.baselines.prefetch(files);
    for (const file of files) {
      if (this.closed) return;
      const turn = this.core.turns.claimant(file, isInside);
      if (turn) {
        // An agent is in its turn here: its turn review takes the change, against this baseline.
        await this.handToTurn(turn, file);
        continue;
      }
      if (this.core.queue.heldByOtherThan(pending?.id, file)) {
        this.waiting.add(file);
        continue;
      }
      const inReview = pending?.files.get(file);
      if (!inReview && room <= 0) {
        beyond.push(file);
        continue;
      }
      let snapshot: DiskSnapshot;
      try {
        snapshot = await this.read(file);
      } catch (error) {
        notes.push(`${this.shown(file)}: not read (${messageOf(error)})`);
        continue;
      }
      if (snapshot.exists && snapshot.kind === 'opaque') {
        notes.push(`${this.shown(file)}: ${snapshot.why}, not reviewed`);
        continue;
      }
      const proposedText = snapshot.exists && snapshot.kind === 'text' ? snapshot.text : '';
      if (inReview) {
        // Changed again while its review waits: the new text is proposed against the same baseline.
        if (!sameContent(inReview.onDisk, snapshot)) {
          reviewed.push({ path: file, base: inReview.base, proposedText, onDisk: snapshot });
        }
        continue;
      }
      const baseline = await this.baselines.get(file, snapshot);
      if (!baseline.known) {
        // Nothing to compare with: what is there now is where reviewing this file starts.
        this.baselines.set(file, snapshot);
        notes.push(
          `${this.shown(file)}: not reviewed, its baseline is unknown (${baseline.why}); its text now is its baseline`,
        );
        continue;
      }
      if (sameContent(baseline.snapshot, snapshot)) continue;
      reviewed.push({ path: file, base: baseline.snapshot, proposedText, onDisk: snapshot });
      room--;
    }
    if (this.closed) return;
    if (reviewed.length > 0) this.putUp(pending, reviewed, notes);
    else for (const note of notes) this.log(`Watch mode (${this.root}): ${note}`);
    if (beyond.length > 0) {
      this.pause(
        `more than ${WATCH_MAX_FILES_PER_REVIEW} files changed while its review waits; decide that ` +
          'review, then resume to review the rest',
        beyond,
      );
    }
  }

  /** The folder's pending review, while the queue still has it pending. */
  private livePending(): PendingReview | undefined {
    const { pending } = this;
    if (pending && this.core.queue.item(pending.id)?.state === 'pending') return pending;
    return undefined;
  }

  private putUp(pending: PendingReview | undefined, reviewed: Reviewed[], notes: readonly string[]): void {
    try {
      if (pending) this.grow(pending, reviewed, notes);
      else this.add(reviewed, notes);
    } catch (error) {
      if (error instanceof TooManyPendingReviewsError) {
        // Not reviewed, and not taken as reviewed: held, their baselines where they were.
        this.pause(
          error.message,
          reviewed.map((file) => file.path),
        );
      } else if (error instanceof ReviewsPausedError) {
        // The person paused "Changes on disk" in Connections: they let these changes through as written.
        for (const file of reviewed) this.baselines.set(file.path, file.onDisk);
        const names = reviewed.map((file) => this.shown(file.path)).join(', ');
        this.log(`Watch mode (${this.root}): ${names} not reviewed: ${error.message}`);
      } else if (error instanceof ReviewError) {
        // The pending review ended meanwhile: its outcome moves the baselines, then these are looked at again.
        this.noteChanges(reviewed.map((file) => file.path));
      } else throw error;
    }
  }

  private add(reviewed: Reviewed[], notes: readonly string[]): void {
    const files = new Map(reviewed.map((file) => [file.path, file]));
    const added = this.core.queue.add({
      client: this.client,
      title: reviewTitle(this.root, files.keys()),
      description: reviewDescription(this.root, notes),
      files: reviewed,
    });
    const pending: PendingReview = { id: added.id, files };
    this.pending = pending;
    void added.outcome.then((outcome) => this.settle(pending, outcome));
  }

  private grow(pending: PendingReview, reviewed: Reviewed[], notes: readonly string[]): void {
    const files = new Map(pending.files);
    for (const file of reviewed) files.set(file.path, file);
    this.core.queue.growReview(pending.id, reviewed, reviewTitle(this.root, files.keys()));
    pending.files = files;
    for (const note of notes) this.log(`Watch mode (${this.root}): ${note}`);
  }

  private pause(reason: string, files: readonly string[]): void {
    if (this.paused.pause(reason, files)) {
      this.log(`Watch mode (${this.root}): paused, ${reason}`);
    }
    this.onIssue();
  }

  private hold(files: readonly string[]): void {
    this.paused.hold(files);
    this.onIssue();
  }

  /** Carries out the decision on disk through core's writer; the baselines follow what was decided. */
  private async settle(pending: PendingReview, outcome: ReviewOutcome): Promise<void> {
    if (this.pending === pending) this.pending = undefined;
    if (outcome.kind === 'cancelled' || outcome.kind === 'superseded') return;
    const finals = outcome.kind === 'accepted' ? new Map(outcome.files.map((f) => [f.path, f])) : undefined;
    for (const file of pending.files.values()) {
      // Only inside this folder: one in it swapped for a link since is not written through.
      const disk = diskFileOf(file, this.root);
      const decision = decided(finals, file);
      const result = await settleFile(this.core.writer, disk, decision, 'difftray', {
        reviewId: pending.id,
        // Set before the write, so the watch's report of it finds the disk at its baseline.
        beforeWrite: (target) => this.baselines.set(file.path, target),
      });
      if (result.kind === 'failed') {
        this.baselines.set(file.path, file.base);
        this.core.queue.addNote(pending.id, `${this.shown(file.path)}: not written (${result.reason})`);
      }
      const revert = revertOf(disk, decision, result);
      if (revert) this.core.queue.noteRevert(pending.id, file.path, revert);
      // Looked at again: a change made meanwhile is reviewed on its own.
      this.noteChange(file.path);
    }
  }

  /**
   * The turn follows `file` from its baseline (the text the person last decided), unless it follows it
   * already (an edit named before its write). Unknown baselines are said so in the turn review.
   */
  private async handToTurn(turn: Turn, file: string): Promise<void> {
    const turns = this.core.turns;
    if (turns.follows(turn, file)) return;
    let snapshot: DiskSnapshot;
    try {
      snapshot = await this.read(file);
    } catch (error) {
      turns.noteBefore(turn, file, { unknown: `not read (${messageOf(error)})` });
      return;
    }
    const baseline = await this.baselines.get(file, snapshot);
    turns.noteBefore(turn, file, baseline.known ? baseline.snapshot : { unknown: baseline.why });
  }

  /** The file as it is now, read inside this folder only (absent when its folder is gone). */
  private async read(file: string): Promise<DiskSnapshot> {
    let directory: ConfinedDirectory;
    try {
      directory = await openInWatchedFolder(path.dirname(file), this.root);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return ABSENT;
      throw error;
    }
    try {
      return await readSnapshotIn(directory, path.basename(file), this.maxFileBytes);
    } finally {
      await directory.close();
    }
  }

  private shown(file: string): string {
    return shownPath(this.root, file);
  }
}
