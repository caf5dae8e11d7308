/**
 * Whether what is on screen is settled, and what follows from it: `data-diff-ready` for tests and the
 * bench, whether line decisions may go out (editsPending), unfolding main's hunks, and bringing the
 * current hunk into view once the diff is laid out. What ready means is in DiffEditor.tsx.
 *
 * It settles after every commit that may change it, and at once when Monaco reports a computed diff
 * (DiffProgress.onSettle): the diff is usually the last thing to come, and waiting for React to render
 * again for it would hold "ready" and the reveal back by a frame or more.
 *
 * Moving to another hunk costs the same whatever the number of hunks: unfolding (which looks at every
 * hunk) runs only when the texts, the hunks' line ranges or Monaco's diff changed, and revealing
 * reads the one current hunk.
 */
import { useEffect, useRef, type RefObject } from 'react';
import type { HunkView } from '../../../shared/app-api';
import { monaco } from '../monaco';
import { useReviewUi } from '../review-ui';
import { zoneKey, type HunkControls } from './use-hunk-controls';
import type { DiffSession, DiffSessionHandle } from './use-diff-session';
import type { ShownTexts } from './use-model-sync';

/** What the last commit rendered, read when settling (after a commit, or when a diff comes in). */
interface Rendered {
  placedKey: string;
  hunks: readonly HunkView[];
  currentHunk: number | null;
  geometry: number;
  shown: ShownTexts;
  editTick: number;
}

/** What was already done, so settling again does nothing twice. */
interface Settled {
  unfolded: string;
  revealed: string;
}

function settle(current: DiffSession, wrapper: HTMLElement, rendered: Rendered, done: Settled): void {
  const { placedKey, hunks, currentHunk, geometry, shown, editTick } = rendered;
  const { texts, edits, progress } = current;
  const inSync =
    shown.loaded &&
    !edits.pending &&
    shown.contentRevision >= shown.revision &&
    shown.proposedText === texts.proposed &&
    shown.baseText === texts.base;
  if (useReviewUi.getState().editsPending === inSync) useReviewUi.getState().setEditsPending(!inSync);
  const key = zoneKey(progress.version, geometry);
  const ready = inSync && progress.diffIsCurrent && current.zones.key === key && placedKey === key;
  // Main's hunks describe the text now: none of them may stay folded away.
  const unfoldKey = `${shown.fileKey}|${key}|${progress.diffs}|${editTick}`;
  if (ready && done.unfolded !== unfoldKey) {
    done.unfolded = unfoldKey;
    current.unfolder.unfold();
  }
  wrapper.dataset.diffReady = ready ? 'true' : 'false';

  const hunk = currentHunk === null ? undefined : hunks[currentHunk];
  if (!ready || !hunk) return;
  const revealKey = `${shown.fileKey}|${progress.version}|${currentHunk}`;
  if (done.revealed === revealKey) return;
  // Only when the current hunk or the texts change: decisions must not scroll the view away.
  done.revealed = revealKey;
  const first = Math.max(1, hunk.proposedStart);
  const last = Math.max(first, hunk.proposedEnd);
  current.modified.revealLinesInCenterIfOutsideViewport(first, last, monaco.editor.ScrollType.Immediate);
}

export function useDiffReadiness(
  wrapperRef: RefObject<HTMLDivElement | null>,
  { session, editTick }: DiffSessionHandle,
  { placedKey }: HunkControls,
  hunks: readonly HunkView[],
  currentHunk: number | null,
  geometry: number,
  shown: ShownTexts,
): void {
  const done = useRef<Settled>({ unfolded: '', revealed: '' });
  const { loaded, fileKey, baseText, proposedText, contentRevision, revision } = shown;

  useEffect(() => {
    const current = session.current;
    const wrapper = wrapperRef.current;
    if (!current || !wrapper) return;
    const rendered: Rendered = { placedKey, hunks, currentHunk, geometry, shown, editTick };
    current.progress.onSettle(() => settle(current, wrapper, rendered, done.current));
    settle(current, wrapper, rendered, done.current);
    // shown is read whole and hunks for the current hunk's line range (which geometry captures);
    // these are the parts of them that change.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [
    session,
    wrapperRef,
    editTick,
    placedKey,
    geometry,
    currentHunk,
    loaded,
    fileKey,
    baseText,
    proposedText,
    contentRevision,
    revision,
  ]);
}
