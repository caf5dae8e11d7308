/** Hunk-state and current-hunk decorations, set again whenever the hunks or the texts change. */
import { useEffect, type RefObject } from 'react';
import type { HunkView } from '../../../shared/app-api';
import type { DiffSession } from './use-diff-session';
import type { ShownTexts } from './use-model-sync';

export function useHunkDecorations(
  session: RefObject<DiffSession | null>,
  hunks: readonly HunkView[],
  currentHunk: number | null,
  geometry: string,
  shown: ShownTexts,
): void {
  const { fileKey, baseText, proposedText } = shown;
  useEffect(() => {
    // The texts are not read, but new models or texts need the decorations set again.
    session.current?.decorations.showDecisions(hunks);
  }, [session, hunks, fileKey, baseText, proposedText]);

  useEffect(() => {
    session.current?.decorations.showCurrent(currentHunk === null ? undefined : hunks[currentHunk]);
    // Only the current hunk's line range matters, which geometry captures.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [session, currentHunk, geometry, fileKey, baseText, proposedText]);
}
