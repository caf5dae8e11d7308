/**
 * The review's Monaco diff editor is made once the app has loaded, not when a review comes on screen:
 * creating it costs 50–80 ms, which the first review would otherwise wait for (its texts behind it).
 * One editor is kept: the DiffEditor on screen borrows it, and gives it back when it leaves, with its
 * models disposed and its find widget closed. A kept editor is in no document, so it can be neither
 * tabbed to nor read by a screen reader.
 */
import { monaco, REVIEW_DIFF_OPTIONS } from '../monaco';
import { Spare } from './spare';

export interface KeptEditor {
  editor: monaco.editor.IStandaloneDiffEditor;
  /** The element Monaco was created in; moved into the host of the DiffEditor that borrows it. */
  root: HTMLElement;
}

function createEditor(): KeptEditor {
  const root = document.createElement('div');
  root.className = 'dt-diff-root';
  const editor = monaco.editor.createDiffEditor(root, {
    ...REVIEW_DIFF_OPTIONS,
    renderSideBySide: true,
    // Monaco's own revert arrows would compete with the hunk controls once the proposal is editable.
    renderGutterMenu: false,
    renderIndicators: true,
    ...DIFF_EDITOR_LABELS,
  });
  return { editor, root };
}

/**
 * The editors' accessible names. Monaco's diff editor rewrites each side's aria-label on every
 * updateOptions and empties it when the call does not name it again (its typing leaves the labels out,
 * its code reads them): use-editor-options.ts passes these with each call.
 */
export const DIFF_EDITOR_LABELS = {
  ariaLabel: 'Proposed change',
  originalAriaLabel: 'Base text',
  modifiedAriaLabel: 'Proposed text',
} as const satisfies monaco.editor.IDiffEditorConstructionOptions;

const spare = new Spare<KeptEditor>(createEditor, ({ editor }) => editor.dispose());

/**
 * Makes the editor ahead of need. The loader (editor-loader.ts) calls it in a task of its own, before
 * any view is drawn: its creation is one of the longest single steps, and would otherwise share a task
 * with the first review's texts going in.
 */
export function prepareDiffEditor(): void {
  spare.prepare();
}

/** The kept editor (or a new one when it is in use or not made yet), laid out inside `host`. */
export function borrowDiffEditor(host: HTMLElement): KeptEditor {
  const kept = spare.take();
  host.appendChild(kept.root);
  // Measured now: the texts go in right after, and should be laid out at the host's size.
  kept.editor.layout();
  return kept;
}

interface FindController {
  closeFindWidget?: () => void;
}

/** Takes the editor back empty, as a new one would be; a second one (two borrowed at once) goes. */
export function returnDiffEditor(kept: KeptEditor): void {
  const { editor, root } = kept;
  const model = editor.getModel();
  for (const side of [editor.getOriginalEditor(), editor.getModifiedEditor()]) {
    side
      .getContribution<FindController & monaco.editor.IEditorContribution>('editor.contrib.findController')
      ?.closeFindWidget?.();
  }
  editor.setModel(null);
  model?.original.dispose();
  model?.modified.dispose();
  root.remove();
  spare.give(kept);
}
