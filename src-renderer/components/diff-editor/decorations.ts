/** Monaco decorations for hunk states and for the current hunk, on both sides of the diff. */
import type { HunkView } from '../../../shared/app-api';
import { currentHunkDecorations, decisionDecorations, type LineDecoration } from '../../hunk-decorations';
import type { DiffSide } from '../../line-selection';
import { monaco } from '../../monaco';

type Collections = Record<DiffSide, monaco.editor.IEditorDecorationsCollection>;

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
  private readonly decisions: Collections;
  private readonly current: Collections;

  constructor(original: monaco.editor.ICodeEditor, modified: monaco.editor.ICodeEditor) {
    const collections = (): Collections => ({
      original: original.createDecorationsCollection(),
      modified: modified.createDecorationsCollection(),
    });
    this.decisions = collections();
    this.current = collections();
  }

  /** Marks every hunk by its decision. */
  showDecisions(hunks: readonly HunkView[]): void {
    this.decisions.modified.set(toMonacoDecorations(decisionDecorations(hunks, 'modified')));
    this.decisions.original.set(toMonacoDecorations(decisionDecorations(hunks, 'original')));
  }

  /** Marks the current hunk (none: undefined). */
  showCurrent(hunk: HunkView | undefined): void {
    this.current.modified.set(toMonacoDecorations(currentHunkDecorations(hunk, 'modified')));
    this.current.original.set(toMonacoDecorations(currentHunkDecorations(hunk, 'original')));
  }
}
