/** "Go to the first conflict": focuses the proposed side on the first conflict marker when asked. */
import { useEffect, type RefObject } from 'react';
import { monaco } from '../monaco';
import { useReviewUi } from '../review-ui';
import type { DiffSession } from './use-diff-session';

export function useConflictJump(session: RefObject<DiffSession | null>): void {
  const conflictRequest = useReviewUi((s) => s.conflictEditRequest);
  useEffect(() => {
    const modified = session.current?.modified;
    const model = modified?.getModel();
    if (!modified || !model || conflictRequest === 0) return;
    const match = model.findNextMatch('<<<<<<<', { lineNumber: 1, column: 1 }, false, true, null, false);
    if (match) {
      modified.setSelection(match.range);
      modified.revealLineInCenter(match.range.startLineNumber, monaco.editor.ScrollType.Immediate);
    }
    modified.focus();
  }, [session, conflictRequest]);
}
