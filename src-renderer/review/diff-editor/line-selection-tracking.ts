/** The selection the person makes (mouse or keyboard) in either side: what line decisions apply to. */
import { selectedLineRanges, type DiffSide } from '../line-selection';
import { monaco } from '../monaco';
import { useReviewUi } from '../review-ui';

/** The review and file the editor shows at the moment of a selection. */
export type ShownFileRef = () => { reviewId: string; fileIndex: number };

export function trackLineSelection(
  side: DiffSide,
  code: monaco.editor.ICodeEditor,
  shown: ShownFileRef,
): monaco.IDisposable {
  return code.onDidChangeCursorSelection((e) => {
    // Carets moved by code (unfolding, revealing a hunk) are not the person's selection.
    if (e.reason !== monaco.editor.CursorChangeReason.Explicit) return;
    const { reviewId, fileIndex } = shown();
    const ranges = selectedLineRanges(code.getSelections() ?? []);
    useReviewUi.getState().setLineSelection({ reviewId, fileIndex, selection: { side, ranges } });
  });
}

/** A selection made in another file's text means nothing in this one. */
export function dropLineSelectionOfOtherFiles(reviewId: string, fileIndex: number): void {
  const selection = useReviewUi.getState().lineSelection;
  if (selection && (selection.reviewId !== reviewId || selection.fileIndex !== fileIndex)) {
    useReviewUi.getState().setLineSelection(null);
  }
}
