/**
 * The pending reviews and what is kept about them so no question needs a scan of the queue: each
 * client's pending reviews (superseding, caps), the bytes they hold, the paths their files name (the
 * disk watch), and the latest disk content noted at each such path.
 */
import type { ClientInfo } from '../../../../shared/app-api';
import type { DiskSnapshot } from '../../disk/disk-snapshot';
import { retainedBytes, snapshotText } from '../history-texts';
import { checkRoomFor } from '../pending-caps';
import { PendingPaths, type PendingPathListener } from '../pending-paths';
import * as reviewFile from '../review-file';
import type { Review } from '../review-record';

export class PendingReviews {
  /** Pending reviews by id, in arrival order (a Map keeps insertion order, and deletes in O(1)). */
  private readonly byId = new Map<string, Review>();
  /** Each client's pending reviews, for superseding and its caps without a scan of the queue. */
  private readonly ofClient = new Map<string, Set<Review>>();
  /** The sum of `pendingBytes` over pending reviews. */
  private textBytes = 0;
  /** The paths of pending reviews' files, each with its pending reviews. */
  private readonly paths = new PendingPaths<Review>();
  /** The latest content seen on disk per path, to re-judge files that an undo restores. */
  private readonly lastSeen = new Map<string, DiskSnapshot>();

  onPath(listener: PendingPathListener): () => void {
    return this.paths.onChange(listener);
  }

  get count(): number {
    return this.byId.size;
  }

  values(): IterableIterator<Review> {
    return this.byId.values();
  }

  /** The client's pending reviews, in arrival order. */
  ofClientId(clientId: string): Review[] {
    return [...(this.ofClient.get(clientId) ?? [])];
  }

  /**
   * Throws TooManyPendingReviewsError unless `pendingBytes` more from `client` fit, beside what waits
   * but `leaving` (reviews it supersedes, or the one it grows); `addsReview`: it is one review more.
   */
  checkRoom(client: ClientInfo, pendingBytes: number, leaving: readonly Review[], addsReview: boolean): void {
    const remaining = this.ofClientId(client.id).filter((review) => !leaving.includes(review));
    const leavingBytes = leaving.reduce((total, review) => total + review.pendingBytes, 0);
    checkRoomFor(client, pendingBytes, {
      clientCount: addsReview ? remaining.length : 0,
      clientBytes: remaining.reduce((total, review) => total + review.pendingBytes, 0),
      totalBytes: this.textBytes - leavingBytes,
    });
  }

  add(review: Review): void {
    this.byId.set(review.id, review);
    let ofThisClient = this.ofClient.get(review.request.client.id);
    if (!ofThisClient) this.ofClient.set(review.request.client.id, (ofThisClient = new Set()));
    ofThisClient.add(review);
    this.textBytes += review.pendingBytes;
    // A remote review's paths are another host's: no local path is pending for it.
    if (!review.request.remote) for (const file of review.files) this.paths.hold(file.path, review);
  }

  /** The review now holds `pendingBytes`, and files at `addedPaths` too (a grown review). */
  grew(review: Review, pendingBytes: number, addedPaths: readonly string[]): void {
    this.textBytes += pendingBytes - review.pendingBytes;
    review.pendingBytes = pendingBytes;
    for (const path of addedPaths) this.paths.hold(path, review);
  }

  /** The review ended: it holds nothing any more. */
  remove(review: Review): void {
    this.byId.delete(review.id);
    const ofClient = this.ofClient.get(review.request.client.id);
    ofClient?.delete(review);
    if (ofClient?.size === 0) this.ofClient.delete(review.request.client.id);
    this.textBytes -= review.pendingBytes;
    for (const file of review.request.remote ? [] : review.files) {
      if (this.paths.release(file.path, review)) this.lastSeen.delete(file.path);
    }
  }

  hasPath(path: string): boolean {
    return this.paths.has(path);
  }

  allPaths(): Set<string> {
    return new Set(this.paths.paths());
  }

  /** Whether a pending review other than `id` holds a file at `path`. */
  heldByOtherThan(id: string | undefined, path: string): boolean {
    for (const review of this.paths.holders(path)) if (review.id !== id) return true;
    return false;
  }

  seenOnDisk(path: string): DiskSnapshot | undefined {
    return this.lastSeen.get(path);
  }

  /** Records what is on disk at `path` in every pending review of it; answers the reviews it changed. */
  noteDisk(path: string, snapshot: DiskSnapshot, now: number): Review[] {
    if (!this.paths.has(path)) return [];
    this.lastSeen.set(path, snapshot);
    const changed: Review[] = [];
    for (const review of this.paths.holders(path)) {
      let changedHere = false;
      for (const file of review.files) {
        if (file.path === path) changedHere = reviewFile.noteDisk(file, snapshot, now) || changedHere;
      }
      if (changedHere) changed.push(review);
    }
    return changed;
  }

  /** The latest snapshot noted at `path`, else what its newest pending review expects there. */
  knownDisk(path: string): DiskSnapshot | undefined {
    const seen = this.lastSeen.get(path);
    if (seen) return seen;
    let newest: Review | undefined;
    for (const review of this.paths.holders(path)) newest = review;
    return newest?.files.find((file) => file.path === path)?.expectedOnDisk;
  }

  /** UTF-8 bytes of the disk contents remembered. */
  seenTextBytes(): number {
    let total = 0;
    for (const snapshot of this.lastSeen.values()) total += retainedBytes([snapshotText(snapshot)]);
    return total;
  }
}
