/**
 * Monaco decorations for hunk states and for the current hunk, on both sides of the diff. Decisions
 * are kept per hunk and updated by difference: deciding one hunk of 2,500 touches that hunk's
 * decorations only, and moving the current hunk touches its two markers.
 */
import type { HunkView } from '../../../shared/app-api';
import { currentHunkDecorations, hunkDecisionDecorations, type LineDecoration } from '../hunk-decorations';
import type { DiffSide } from '../line-selection';
import { monaco } from '../monaco';
import { changedDecisions } from './hunk-geometry';

type Collections = Record<DiffSide, monaco.editor.IEditorDecorationsCollection>;
type CodeEditor = monaco.editor.ICodeEditor;

const SIDES: readonly DiffSide[] = ['original', 'modified'];

function toMonacoDecorations(lines: LineDecoration[]): monaco.editor.IModelDeltaDecoration[] {
  return lines.map((line) => ({
    range: new monaco.Range(line.startLine, 1, line.endLine, 1),
    options: {
      isWholeLine: true,
      className: line.className,
      linesDecorationsClassName: line.gutterClassName,
      ...(line.inlineClassName ? { inlineClassName: line.inlineClassName } : {}),
    },
  }));
}

export class HunkDecorations {
  private readonly editors: Record<DiffSide, CodeEditor>;
  private readonly current: Collections;
  /** The hunks whose decisions are shown, and what they were shown on (see showDecisions). */
  private shown: readonly HunkView[] = [];
  private shownOn = '';
  /** Per side, per hunk position: the ids of that hunk's decision decorations. */
  private readonly ids: Record<DiffSide, string[][]> = { original: [], modified: [] };

  constructor(original: CodeEditor, modified: CodeEditor) {
    this.editors = { original, modified };
    this.current = {
      original: original.createDecorationsCollection(),
      modified: modified.createDecorationsCollection(),
    };
  }

  /**
   * Marks every hunk by its decision. `layout` names the texts and hunk geometry: when it changes
   * every hunk is marked again, otherwise only hunks whose decision changed are.
   */
  showDecisions(hunks: readonly HunkView[], layout: string): void {
    const everything = layout !== this.shownOn;
    const positions = everything ? hunks.map((_, i) => i) : changedDecisions(this.shown, hunks);
    const dropped = everything ? this.ids.original.length : 0;
    this.shown = hunks;
    this.shownOn = layout;
    if (positions.length === 0 && dropped === 0) return;
    for (const side of SIDES) {
      const ids = this.ids[side];
      const old: string[] = everything ? ids.flat() : positions.flatMap((i) => ids[i] ?? []);
      const lists = positions.map((i) => hunkDecisionDecorations(hunks[i]!, side));
      // On the model, which belongs to this editor only; ids of a previous model are ignored by it.
      const model = this.editors[side].getModel();
      const added = model?.deltaDecorations(old, toMonacoDecorations(lists.flat())) ?? [];
      if (everything) ids.length = hunks.length;
      let next = 0;
      positions.forEach((position, k) => {
        const count = lists[k]!.length;
        ids[position] = added.slice(next, next + count);
        next += count;
      });
    }
  }

  /** Marks the current hunk (none: undefined). */
  showCurrent(hunk: HunkView | undefined): void {
    for (const side of SIDES) this.current[side].set(toMonacoDecorations(currentHunkDecorations(hunk, side)));
  }
}
