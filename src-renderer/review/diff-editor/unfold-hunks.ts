/**
 * Keeps main's hunks on screen when "Hide unchanged lines" is on: whatever Monaco's own diff folded
 * of them is unfolded again (which lines are folded, and where to put cursors, is hunk-reveal.ts).
 */
import type { HunkView } from '../../../shared/app-api';
import { foldedRuns, hunkViewRanges, sameRuns, unfoldTargets, type LineProbe } from '../hunk-reveal';
import { monaco } from '../monaco';

type CodeEditor = monaco.editor.ICodeEditor;

/** Cursors per call when unfolding hunks (Monaco caps an editor at 10,000 cursors). */
const UNFOLD_CURSORS_PER_CALL = 1000;
/** Unfolding rounds at most; each one at least halves every folded run, so 32 is never reached. */
const UNFOLD_ROUNDS = 32;

/**
 * Unfolds whatever "Hide unchanged lines" folded of main's hunks, so every hunk, with its context,
 * is on screen however Monaco's own diff saw it. Monaco's diff editor unfolds the lines cursors are
 * put on: cursors go on the folded lines, and then the caret goes back where the person had it when
 * they are in the editor, or else to the current hunk. `stuck` remembers lines that only look folded
 * (see foldedRuns), so they do not move the caret again and again.
 */
function unfoldHunks(
  modified: CodeEditor,
  hunks: readonly HunkView[],
  current: HunkView | undefined,
  stuck: { key: string },
): void {
  const model = modified.getModel();
  if (!model) return;
  const lineCount = model.getLineCount();
  const probe: LineProbe = {
    lineCount,
    top: (line) => modified.getTopForLineNumber(line),
    bottom: (line) => modified.getBottomForLineNumber(line),
  };
  const ranges = hunkViewRanges(hunks, lineCount);
  let runs = foldedRuns(ranges, probe);
  const keyOf = (found: typeof runs): string =>
    found.length === 0 ? '' : `${model.id}|${model.getVersionId()}|${JSON.stringify(found)}`;
  if (runs.length === 0 || keyOf(runs) === stuck.key) return;
  const inEditor = modified.hasTextFocus();
  const saved = modified.getSelections();
  for (let round = 0; round < UNFOLD_ROUNDS; round++) {
    const targets = unfoldTargets(runs);
    for (let i = 0; i < targets.length; i += UNFOLD_CURSORS_PER_CALL) {
      const batch = targets.slice(i, i + UNFOLD_CURSORS_PER_CALL);
      modified.setSelections(batch.map((line) => new monaco.Selection(line, 1, line, 1)));
    }
    const left = foldedRuns(ranges, probe);
    const progressed = !sameRuns(left, runs);
    runs = left;
    if (runs.length === 0 || !progressed) break;
  }
  stuck.key = keyOf(runs);
  if (inEditor && saved && saved.length > 0) {
    modified.setSelections(saved);
  } else {
    // Not in the editor: the caret is not drawn, and the current hunk is where Tab would want it.
    const line = current ? current.proposedStart + 1 : (ranges[0]?.[0] ?? 1);
    const lineNumber = Math.min(Math.max(1, line), lineCount);
    modified.setSelection(new monaco.Selection(lineNumber, 1, lineNumber, 1));
  }
}

/** What unfolding needs to know at the moment it runs; undefined: nothing to unfold now. */
export type UnfoldInput = () => { hunks: readonly HunkView[]; current: HunkView | undefined } | undefined;

export interface HunkUnfolder {
  /** Unfolds now. */
  unfold(): void;
  /** Unfolds once Monaco's current update is done (it reports from inside its own updates). */
  schedule(): void;
  /** The editor is gone: nothing scheduled runs any more. */
  dispose(): void;
}

export function createHunkUnfolder(modified: CodeEditor, input: UnfoldInput): HunkUnfolder {
  const stuck = { key: '' };
  let queued = false;
  let disposed = false;
  const unfold = (): void => {
    const wanted = input();
    if (wanted) unfoldHunks(modified, wanted.hunks, wanted.current, stuck);
  };
  return {
    unfold: () => {
      if (!disposed) unfold();
    },
    schedule() {
      if (queued) return;
      queued = true;
      queueMicrotask(() => {
        queued = false;
        if (!disposed) unfold();
      });
    },
    dispose() {
      disposed = true;
    },
  };
}
