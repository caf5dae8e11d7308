/**
 * The change stream's two ends, as pure functions: what changed between two versions of a review
 * (core) and applying a change to the state a window holds (renderer). Unchanged reviews and hunks
 * keep their identity (===), so a UI can re-render only what changed.
 */
import type {
  AppChange,
  AppSnapshot,
  DetailPatch,
  HunkView,
  ReviewDetail,
  ReviewItem,
  ReviewPatch,
  ReviewSummary,
} from './app-api';

/** Structural equality of JSON-like values: what a window would see as the same. */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((value, i) => sameValue(value, b[i]));
  }
  const aKeys = Object.keys(a);
  const bRecord = b as Record<string, unknown>;
  if (aKeys.length !== Object.keys(b).length) return false;
  return aKeys.every(
    (key) =>
      Object.prototype.hasOwnProperty.call(b, key) &&
      sameValue((a as Record<string, unknown>)[key], bRecord[key]),
  );
}

/** The fields of `next` that differ from `previous`; undefined when nothing does. */
export function diffReview(previous: ReviewItem, next: ReviewItem): ReviewPatch | undefined {
  const patch: Record<string, unknown> = {};
  let changed = false;
  for (const key of Object.keys(next) as Array<keyof ReviewItem>) {
    if (!sameValue(previous[key], next[key])) {
      patch[key] = next[key];
      changed = true;
    }
  }
  const unset = (Object.keys(previous) as Array<keyof ReviewItem>).filter((key) => !(key in next));
  if (unset.length > 0) {
    patch.unset = unset;
    changed = true;
  }
  return changed ? ({ ...patch, id: next.id } as ReviewPatch) : undefined;
}

function patchReview(review: ReviewItem, patch: ReviewPatch): ReviewItem {
  const { unset, ...fields } = patch;
  const next = { ...review, ...fields } as ReviewItem & Record<string, unknown>;
  for (const key of unset ?? []) delete next[key];
  return next;
}

/** The state after `change`. Applying a change twice gives the same state as applying it once. */
export function applyChange(snapshot: AppSnapshot, change: AppChange): AppSnapshot {
  let reviews = snapshot.reviews;
  const removed = new Set(change.removed);
  const patches = new Map((change.changed ?? []).map((patch) => [patch.id, patch]));
  const added = new Map((change.added ?? []).map((item) => [item.id, item]));
  if (removed.size + patches.size + added.size > 0) {
    const next: ReviewItem[] = [];
    for (const review of reviews) {
      if (removed.has(review.id)) continue;
      const patch = patches.get(review.id);
      const again = added.get(review.id);
      // A review listed as added that is already here: take the newer copy (a change seen twice).
      next.push(again ?? (patch ? patchReview(review, patch) : review));
      added.delete(review.id);
    }
    next.push(...added.values());
    reviews = next;
  }
  return {
    version: change.version,
    reviews,
    clients: change.clients ?? snapshot.clients,
    pausedClients: change.pausedClients ?? snapshot.pausedClients,
    workspaceFolders: change.workspaceFolders ?? snapshot.workspaceFolders,
    ...(snapshot.homeFolder !== undefined && { homeFolder: snapshot.homeFolder }),
    watchedFolders: change.watchedFolders ?? snapshot.watchedFolders,
    connectionRequests: change.connectionRequests ?? snapshot.connectionRequests,
    trustedPrograms: change.trustedPrograms ?? snapshot.trustedPrograms,
    ...optionalFieldsOf(change, snapshot),
  };
}

/**
 * The hunks of the review on screen after `patch`; undefined when the patch does not follow what is
 * held (another review, or a revision missed): then the window asks for them again.
 */
export function applyDetailPatch(detail: ReviewDetail, patch: DetailPatch): ReviewDetail | undefined {
  if (patch.reviewId !== detail.reviewId || patch.from !== detail.revision) return undefined;
  const files = [...detail.files];
  for (const file of patch.files) {
    if (file.hunks) {
      files[file.fileIndex] = file.hunks;
      continue;
    }
    const hunks: HunkView[] = [...(files[file.fileIndex] ?? [])];
    for (const [index, hunk] of file.changed ?? []) hunks[index] = hunk;
    files[file.fileIndex] = hunks;
  }
  return { reviewId: detail.reviewId, revision: patch.to, files };
}

/** The review on screen as components use it: its item with the hunks of its files. */
export function withHunks(item: ReviewItem, detail: ReviewDetail): ReviewSummary {
  return { ...item, files: item.files.map((file, i) => ({ ...file, hunks: detail.files[i] ?? [] })) };
}

/** The optional fields after `change`: left out of a snapshot that never had them. */
function optionalFieldsOf(
  change: AppChange,
  snapshot: AppSnapshot,
): Pick<
  AppSnapshot,
  'pairedClients' | 'pairing' | 'undoableWrites' | 'settings' | 'settingsFile' | 'watchIssues'
> {
  const pairedClients = change.pairedClients ?? snapshot.pairedClients;
  const pairing = change.pairing ?? snapshot.pairing;
  const undoableWrites = change.undoableWrites ?? snapshot.undoableWrites;
  const settings = change.settings ?? snapshot.settings;
  const settingsFile = change.settingsFile ?? snapshot.settingsFile;
  const watchIssues = change.watchIssues ?? snapshot.watchIssues;
  return {
    ...(watchIssues !== undefined && { watchIssues }),
    ...(pairedClients !== undefined && { pairedClients }),
    ...(pairing !== undefined && { pairing }),
    ...(undoableWrites !== undefined && { undoableWrites }),
    ...(settings !== undefined && { settings }),
    ...(settingsFile !== undefined && { settingsFile }),
  };
}
