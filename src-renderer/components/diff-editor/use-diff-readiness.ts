/**
 * Whether what is on screen is settled, and what follows from it: `data-diff-ready` for tests and the
 * bench, whether line decisions may go out (editsPending), unfolding main's hunks, and bringing the
 * current hunk into view once the diff is laid out. What ready means is in DiffEditor.tsx.
 *
 * Moving to another hunk costs the same whatever the number of hunks: unfolding (which looks at every
 * hunk) runs only when the texts, the hunks' line ranges or Monaco's diff changed, and revealing
 * reads the one current hunk.
 */
import { useEffect, useRef, type RefObject } from 'react';
import type { HunkView } from '../../../shared/app-api';
import { monaco } from '../../monaco';
import { useReviewUi } from '../../review-ui';
import { zoneKey, type HunkControls } from './use-hunk-controls';
import type { DiffSessionHandle } from './use-diff-session';
import type { ShownTexts } from './use-model-sync';

export function useDiffReadiness(
  wrapperRef: RefObject<HTMLDivElement | null>,
  { session, diffTick, editTick }: DiffSessionHandle,
  { placedKey }: HunkControls,
  hunks: readonly HunkView[],
  currentHunk: number | null,
  geometry: number,
  shown: ShownTexts,
): void {
  const revealedRef = useRef('');
  const unfoldedRef = useRef('');
  const readyRef = useRef(false);
  const { loaded, fileKey, baseText, proposedText, contentRevision, revision } = shown;

  useEffect(() => {
    const current = session.current;
    const wrapper = wrapperRef.current;
    if (!current || !wrapper) return;
    const { texts, edits, progress } = current;
    const inSync =
      loaded &&
      !edits.pending &&
      contentRevision >= revision &&
      proposedText === texts.proposed &&
      baseText === texts.base;
    if (useReviewUi.getState().editsPending === inSync) useReviewUi.getState().setEditsPending(!inSync);
    const key = zoneKey(progress.version, geometry);
    const ready = inSync && progress.diffIsCurrent && current.zones.key === key && placedKey === key;
    readyRef.current = ready;
    // Main's hunks describe the text now: none of them may stay folded away.
    const unfoldKey = `${fileKey}|${key}|${diffTick}|${editTick}`;
    if (ready && unfoldedRef.current !== unfoldKey) {
      unfoldedRef.current = unfoldKey;
      current.unfolder.unfold();
    }
    wrapper.dataset.diffReady = ready ? 'true' : 'false';
  }, [
    session,
    wrapperRef,
    diffTick,
    editTick,
    placedKey,
    geometry,
    loaded,
    fileKey,
    baseText,
    proposedText,
    contentRevision,
    revision,
  ]);

  // After the readiness effect (declaration order), so it sees this commit's readiness.
  useEffect(() => {
    const current = session.current;
    const hunk = currentHunk === null ? undefined : hunks[currentHunk];
    if (!current || !readyRef.current || !hunk) return;
    const revealKey = `${fileKey}|${current.progress.version}|${currentHunk}`;
    if (revealedRef.current === revealKey) return;
    // Only when the current hunk or the texts change: decisions must not scroll the view away.
    revealedRef.current = revealKey;
    const first = Math.max(1, hunk.proposedStart);
    const last = Math.max(first, hunk.proposedEnd);
    current.modified.revealLinesInCenterIfOutsideViewport(first, last, monaco.editor.ScrollType.Immediate);
    // hunks is read for the current hunk's line range, which geometry captures.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [
    session,
    currentHunk,
    geometry,
    fileKey,
    diffTick,
    editTick,
    placedKey,
    loaded,
    baseText,
    proposedText,
    contentRevision,
    revision,
  ]);
}
