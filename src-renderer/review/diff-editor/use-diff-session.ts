/**
 * Borrows Monaco's diff editor once per mount (kept-editor.ts), with the parts that live as long as it does (proposal
 * edits, unfolding, decorations, the hunk control layer, selection tracking), and disposes them in
 * the order they depend on each other. Texts, zones and options change underneath it (other hooks).
 */
import { useEffect, useRef, useState, type RefObject } from 'react';
import type { monaco } from '../monaco';
import { registerEditFlusher, useReviewUi } from '../review-ui';
import { HunkDecorations } from './decorations';
import { addControlLayer, HunkZones } from './hunk-zones';
import { borrowDiffEditor, returnDiffEditor } from './kept-editor';
import { trackLineSelection } from './line-selection-tracking';
import { ProposalEdits, type SyncedTexts } from './proposal-edits';
import { createHunkUnfolder, type HunkUnfolder } from './unfold-hunks';
import type { DiffEditorProps } from './diff-editor-props';

/** How far the shown texts and Monaco's diff of them have come; outlives a remount, so keys stay unique. */
export class DiffProgress {
  /** Bumped whenever a model's text is replaced from outside; the diff counts as done only for it. */
  version = 0;
  /** The version Monaco last reported a computed diff for. */
  private diffDone = -1;
  /** How many diffs Monaco has reported, whatever their version. */
  diffs = 0;
  private listener: (() => void) | null = null;

  textReplaced(): void {
    this.version += 1;
  }

  diffComputed(): void {
    this.diffDone = this.version;
    this.diffs += 1;
  }

  /**
   * What settles once a computed diff is reported (useDiffReadiness), the last one given: it runs
   * in the task that brought the diff rather than after React renders again.
   */
  onSettle(listener: () => void): void {
    this.listener = listener;
  }

  settle(): void {
    this.listener?.();
  }

  /** Monaco's diff is of the texts shown now. */
  get diffIsCurrent(): boolean {
    return this.diffDone === this.version;
  }
}

export interface DiffSession {
  editor: monaco.editor.IStandaloneDiffEditor;
  modified: monaco.editor.ICodeEditor;
  texts: SyncedTexts;
  edits: ProposalEdits;
  unfolder: HunkUnfolder;
  decorations: HunkDecorations;
  zones: HunkZones;
  progress: DiffProgress;
}

export interface DiffSessionHandle {
  session: RefObject<DiffSession | null>;
  /** Ticks whenever whether an edit is pending may have changed. */
  editTick: number;
}

export function useDiffSession(
  hostRef: RefObject<HTMLDivElement | null>,
  latest: RefObject<DiffEditorProps>,
): DiffSessionHandle {
  const session = useRef<DiffSession | null>(null);
  const progress = useRef(new DiffProgress());
  const [editTick, setEditTick] = useState(0);

  useEffect(() => {
    const host = hostRef.current;
    if (!host) return;
    // Made when the app loaded (kept-editor.ts), so a review coming on screen does not wait for it.
    const kept = borrowDiffEditor(host);
    const { editor } = kept;
    const original = editor.getOriginalEditor();
    const modified = editor.getModifiedEditor();
    const texts: SyncedTexts = { fileKey: '', base: '', proposed: '', applyingRemote: false };
    const edits = new ProposalEdits({
      texts,
      shownModel: () => modified.getModel(),
      fileIndex: () => latest.current.fileIndex,
      mainProposedText: () => latest.current.content?.proposedText,
      send: async (fileIndex, text) => (await latest.current.onEdit?.(fileIndex, text)) ?? false,
      changed: () => setEditTick((tick) => tick + 1),
    });
    // Whatever Monaco folds, main's hunks stay on screen: checked whenever its folding may have changed.
    const unfolder = createHunkUnfolder(modified, () => {
      const { prefs, hunks, currentHunk } = latest.current;
      // Nothing is folded without the option; while an edit is on its way, main's hunks lag the text.
      if (!prefs.hideUnchanged || edits.pending) return undefined;
      return { hunks, current: currentHunk === null ? undefined : hunks[currentHunk] };
    });
    const controls = addControlLayer(modified);
    const shownFile = () => latest.current;
    const subscriptions = [
      editor.onDidUpdateDiff(() => {
        progress.current.diffComputed();
        unfolder.schedule();
        // After the unfolding queued above: Monaco reports from inside its own update.
        queueMicrotask(() => progress.current.settle());
      }),
      modified.onDidChangeHiddenAreas(() => unfolder.schedule()),
      trackLineSelection('original', original, shownFile),
      trackLineSelection('modified', modified, shownFile),
    ];
    // Submit and undo send an edit still waiting for its debounce first.
    const unregisterFlusher = registerEditFlusher(() => edits.flush());
    const created: DiffSession = {
      editor,
      modified,
      texts,
      edits,
      unfolder,
      decorations: new HunkDecorations(original, modified),
      zones: new HunkZones(modified, controls.layer),
      progress: progress.current,
    };
    session.current = created;

    return () => {
      // An edit still waiting for its debounce goes out before the editor does.
      void edits.flush();
      unregisterFlusher();
      useReviewUi.getState().setEditsPending(false);
      texts.fileKey = '';
      subscriptions.forEach((subscription) => subscription.dispose());
      controls.dispose();
      session.current = null;
      unfolder.dispose();
      // Emptied (models disposed) and kept for the next review. Its view zones went with the model,
      // so only the control nodes are left to remove.
      returnDiffEditor(kept);
      created.zones.clear();
    };
    // Once per mount: everything that changes is read through `latest`.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  return { session, editTick };
}
