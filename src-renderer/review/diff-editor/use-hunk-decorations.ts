/**
 * Hunk-state and current-hunk decorations. Decisions are updated by difference; all of them are set
 * again only when the texts or the hunks' line ranges change. Moving the current hunk touches its
 * marker only.
 */
import { useEffect, useRef, type RefObject } from 'react';
import type { HunkView } from '../../../shared/app-api';
import type { DiffSession } from './use-diff-session';
import type { ShownTexts } from './use-model-sync';

export function useHunkDecorations(
  session: RefObject<DiffSession | null>,
  hunks: readonly HunkView[],
  currentHunk: number | null,
  geometry: number,
  shown: ShownTexts,
): void {
  const { fileKey, baseText, proposedText, contentRevision, revision } = shown;
  // Counts the texts main sent: new texts get every decoration set again, wherever edits moved them.
  const texts = useRef(0);
  useEffect(() => {
    texts.current += 1;
  }, [fileKey, baseText, proposedText, contentRevision, revision]);

  useEffect(() => {
    const current = session.current;
    if (!current) return;
    const layout = `${texts.current}|${current.progress.version}|${geometry}`;
    current.decorations.showDecisions(hunks, layout);
  }, [session, hunks, geometry, fileKey, baseText, proposedText, contentRevision, revision]);

  useEffect(() => {
    session.current?.decorations.showCurrent(currentHunk === null ? undefined : hunks[currentHunk]);
    // Only the current hunk's line range matters, which geometry captures.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [session, currentHunk, geometry, fileKey, baseText, proposedText]);
}
