/**
 * Keeps the editor's models in step with main's texts. A new file gets new models. For the same file,
 * a newer text from main (an undo, a rebase) is patched in, keeping the person's cursor; the text the
 * person's own edit produced comes back equal to what the editor shows and is left alone.
 */
import { useEffect, type RefObject } from 'react';
import { guessLanguage } from '../language';
import { monaco } from '../monaco';
import { dropLineSelectionOfOtherFiles } from './line-selection-tracking';
import { createReviewModel, replaceText } from './text-models';
import type { DiffSession } from './use-diff-session';

/** The file the editor is to show, as main last sent it. */
export interface ShownTexts {
  loaded: boolean;
  reviewId: string;
  fileIndex: number;
  /** Names the file: review, index and path. */
  fileKey: string;
  path: string;
  baseText: string;
  proposedText: string;
  /** The revision of these texts, and the newest revision there is (newer texts may be loading). */
  contentRevision: number;
  revision: number;
}

/** Puts `shown` into the editor; true when a model's text was replaced. */
function syncModels(session: DiffSession, shown: ShownTexts): boolean {
  const { editor, texts, edits } = session;
  const { fileKey, path, baseText, proposedText } = shown;
  if (texts.fileKey !== fileKey || !editor.getModel()) {
    // Whatever the person typed in the previous file goes to main first.
    void edits.flush();
    const language = guessLanguage(path, monaco.languages.getLanguages());
    const previous = editor.getModel();
    const modifiedModel = createReviewModel(proposedText, language);
    edits.watch(modifiedModel);
    editor.setModel({ original: createReviewModel(baseText, language), modified: modifiedModel });
    previous?.original.dispose();
    previous?.modified.dispose();
    Object.assign(texts, { fileKey, base: baseText, proposed: proposedText });
    dropLineSelectionOfOtherFiles(shown.reviewId, shown.fileIndex);
    return true;
  }
  // An older text than the newest revision is still on its way: keep what is shown.
  if (shown.contentRevision < shown.revision) return false;
  const model = editor.getModel();
  let changed = false;
  texts.applyingRemote = true;
  try {
    if (model && baseText !== texts.base) {
      replaceText(model.original, baseText);
      texts.base = baseText;
      changed = true;
    }
    // The person's edit on its way wins over main's older text.
    if (model && proposedText !== texts.proposed && !edits.pending) {
      replaceText(model.modified, proposedText);
      texts.proposed = proposedText;
      changed = true;
    }
  } finally {
    texts.applyingRemote = false;
  }
  return changed;
}

export function useModelSync(session: RefObject<DiffSession | null>, shown: ShownTexts): void {
  const { loaded, fileKey, baseText, proposedText, contentRevision, revision } = shown;
  useEffect(() => {
    const current = session.current;
    if (!current || !loaded) return;
    if (syncModels(current, shown)) current.progress.textReplaced();
    // shown is read whole; these are the parts of it that change.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [loaded, fileKey, baseText, proposedText, contentRevision, revision]);
}
