/** Editor options that follow the view preferences and whether the proposal takes typing. */
import { useEffect, type RefObject } from 'react';
import type { ViewPrefs } from '../../state/prefs';
import { DIFF_EDITOR_LABELS } from './kept-editor';
import type { DiffSession } from './use-diff-session';

export function useViewPrefs(session: RefObject<DiffSession | null>, prefs: ViewPrefs): void {
  const { sideBySide, hideUnchanged, ignoreWhitespace } = prefs;
  useEffect(() => {
    const editor = session.current?.editor;
    if (!editor) return;
    editor.updateOptions({
      ...DIFF_EDITOR_LABELS,
      renderSideBySide: sideBySide,
      ignoreTrimWhitespace: ignoreWhitespace,
      hideUnchangedRegions: {
        enabled: hideUnchanged,
        contextLineCount: 3,
        minimumLineCount: 3,
        revealLineCount: 20,
      },
    });
  }, [session, sideBySide, hideUnchanged, ignoreWhitespace]);
}

/** The proposed side takes typing only while the person edits the proposal (`canEdit`). */
export function useEditable(session: RefObject<DiffSession | null>, canEdit: boolean): void {
  useEffect(() => {
    const editor = session.current?.editor;
    if (!editor) return;
    // On the diff editor, readOnly governs the modified side; originalEditable keeps the base read-only.
    editor.updateOptions({ ...DIFF_EDITOR_LABELS, readOnly: !canEdit });
    // keyboard.ts leaves keys to an editable editor (typing "j" must not jump to the next hunk).
    const container = editor.getModifiedEditor().getContainerDomNode();
    if (canEdit) container.dataset.editable = 'true';
    else delete container.dataset.editable;
  }, [session, canEdit]);
}
