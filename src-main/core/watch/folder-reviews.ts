/**
 * Watch mode for one workspace folder: changes on disk, gathered into bursts, become after-the-fact
 * reviews ("Changes on disk"), and their outcomes are carried out and move the baselines.
 *
 * A review's file has base = its baseline, proposal = the disk text, and onDisk = the snapshot read, so
 * core's writer reverts what was rejected only while the file still holds what was reviewed (else a
 * conflict, and the disk is left alone). A file whose disk text is its baseline is not reviewed: once an
 * outcome moves the baseline, DiffTray's own write is never reviewed again. A file in a pending review
 * (this mode's or another client's) waits until that review ends, then is looked at again.
 */
import path from 'node:path';
import type { ClientInfo } from '../../../shared/app-api';
import type { AppCore } from '../app-core';
import type { ConfinedDirectory } from '../confined-directory';
import { readSnapshotIn, sameContent, type DiskSnapshot } from '../disk-snapshot';
import { MAX_FILE_BYTES, WATCH_MAX_FILES_PER_REVIEW, WATCH_QUIET_MS } from '../limits';
import type { ProposedFile, ReviewOutcome } from '../review-queue';
import { isInside } from '../workspace-paths';
import type { Baselines } from './baselines';
import type { TreeWatch } from './tree-watch';
import { openInWatchedFolder } from './watch-folders';

export interface FolderReviewsOptions {
  quietMs?: number;
  maxFileBytes?: number;
  log?: (message: string) => void;
}

/** A burst never waits longer than this many quiet periods, however busy the disk stays. */
const MAX_BURST_QUIET_PERIODS = 8;
/** Paths named in a review's title; the rest are counted. */
const TITLE_PATHS = 5;

const ABSENT: DiskSnapshot = { exists: false };

interface Reviewed {
  file: ProposedFile & { onDisk: DiskSnapshot };
}

export class FolderReviews {
  private readonly changed = new Set<string>();
  /** Changed paths held by a pending review, looked at again when a review ends. */
  private readonly waiting = new Set<string>();
  private quietTimer: NodeJS.Timeout | undefined;
  private burstStartedAt: number | undefined;
  /** Bursts are handled one after the other. */
  private flushing: Promise<void> = Promise.resolve();
  private closed = false;
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

  /** A file changed on disk: it joins the current burst. */
  noteChange(file: string): void {
    if (this.closed) return;
    this.changed.add(file);
    const now = Date.now();
    this.burstStartedAt ??= now;
    clearTimeout(this.quietTimer);
    const waited = now - this.burstStartedAt;
    const delay = Math.max(0, Math.min(this.quietMs, this.quietMs * MAX_BURST_QUIET_PERIODS - waited));
    this.quietTimer = setTimeout(() => this.endBurst(), delay);
  }

  /** A review ended (any client's): the files that waited for one are looked at again. */
  reviewEnded(): void {
    if (this.waiting.size === 0) return;
    const files = [...this.waiting];
    this.waiting.clear();
    for (const file of files) this.noteChange(file);
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

  private endBurst(): void {
    this.quietTimer = undefined;
    this.burstStartedAt = undefined;
    const files = [...this.changed].sort();
    this.changed.clear();
    this.flushing = this.flushing
      .then(() => this.review(files))
      .catch((error: unknown) => {
        this.log(`Watch mode (${this.root}): ${(error as Error).message}`);
      });
  }

  /** Puts the burst's changed files up for review, those that differ from their baselines. */
  private async review(files: readonly string[]): Promise<void> {
    const reviewed: Reviewed[] = [];
    const notes: string[] = [];
    // In git, the index texts the burst needs, read in one batch rather than a process per file.
    await this.baselines.prefetch(files);
    for (const file of files) {
      if (this.closed) return;
      if (this.core.queue.hasPendingPath(file)) {
        this.waiting.add(file);
        continue;
      }
      let snapshot: DiskSnapshot;
      try {
        snapshot = await this.read(file);
      } catch (error) {
        notes.push(`${this.shown(file)}: not read (${(error as Error).message})`);
        continue;
      }
      if (snapshot.exists && snapshot.kind === 'opaque') {
        notes.push(`${this.shown(file)}: ${snapshot.why}, not reviewed`);
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
      const proposedText = snapshot.exists && snapshot.kind === 'text' ? snapshot.text : '';
      reviewed.push({ file: { path: file, base: baseline.snapshot, proposedText, onDisk: snapshot } });
    }
    if (this.closed) return;
    if (reviewed.length === 0) {
      for (const note of notes) this.log(`Watch mode (${this.root}): ${note}`);
      return;
    }
    for (let start = 0; start < reviewed.length; start += WATCH_MAX_FILES_PER_REVIEW) {
      this.putUp(reviewed.slice(start, start + WATCH_MAX_FILES_PER_REVIEW), start === 0 ? notes : []);
    }
  }

  private putUp(reviewed: Reviewed[], notes: readonly string[]): void {
    const names = reviewed.map(({ file }) => this.shown(file.path));
    const more = names.length > TITLE_PATHS ? ` and ${names.length - TITLE_PATHS} more` : '';
    const title = `Changes on disk: ${names.slice(0, TITLE_PATHS).join(', ')}${more}`;
    const description = [
      `Written on disk in ${this.root} by something other than DiffTray. Accept keeps it; reject puts the ` +
        'rejected lines back as they were.',
      ...(notes.length > 0 ? ['', 'Left out:', ...notes.map((note) => `- ${note}`)] : []),
    ].join('\n');
    let added: { id: string; outcome: Promise<ReviewOutcome> };
    try {
      added = this.core.queue.add({
        client: this.client,
        title,
        description,
        files: reviewed.map((r) => r.file),
      });
    } catch (error) {
      // Paused (the person lets these changes through) or too many waiting: they stand as written.
      for (const { file } of reviewed) this.baselines.set(file.path, file.onDisk);
      this.log(`Watch mode (${this.root}): ${names.join(', ')} not reviewed: ${(error as Error).message}`);
      return;
    }
    void added.outcome.then((outcome) => this.settle(added.id, reviewed, outcome));
  }

  /** Carries out the decision on disk through core's writer; the baselines follow what was decided. */
  private async settle(id: string, reviewed: readonly Reviewed[], outcome: ReviewOutcome): Promise<void> {
    if (outcome.kind === 'cancelled' || outcome.kind === 'superseded') return;
    for (let index = 0; index < reviewed.length; index++) {
      const { file } = reviewed[index]!;
      let expected: DiskSnapshot;
      let target: DiskSnapshot;
      if (outcome.kind === 'accepted') {
        const final = outcome.files[index]!;
        expected = final.expectedOnDisk;
        target = !final.changed
          ? file.base
          : !file.onDisk.exists && final.finalText === ''
            ? ABSENT
            : { exists: true, kind: 'text', text: final.finalText };
      } else {
        expected = file.onDisk;
        target = file.base;
      }
      // Set before the write, so the watch's report of it finds the disk at its baseline.
      this.baselines.set(file.path, target);
      // Only inside this folder: one in it swapped for a link since is not written through.
      const result = await this.core.files.apply({
        path: file.path,
        expected,
        target,
        within: [this.root],
        reviewId: id,
      });
      if (result.status !== 'applied') {
        this.baselines.set(file.path, file.base);
        this.core.queue.addNote(id, `${this.shown(file.path)}: not written (${result.reason})`);
      }
      // Looked at again: a change made meanwhile is reviewed on its own.
      this.noteChange(file.path);
    }
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
    return path.relative(this.root, file).split(path.sep).join('/');
  }
}
