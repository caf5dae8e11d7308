/**
 * "Send to agent": lines of a review's file that a person points the agent at, sent as context to the
 * review's client where its protocol has a way to carry it (shared/app-api.ts protocolTakesSelections).
 * Each adapter that can registers a sink for its client (ClientRegistry.setContextSink) and turns the
 * selection into its own message: Claude Code's `selection_changed` and `at_mentioned`, Gemini's
 * `ide/contextUpdate`, Copilot CLI's `selection_changed`, the native `push_snippet`.
 */
import type { SelectionSide } from '../../../shared/app-api';
import { MAX_SELECTION_CHARS } from '../limits';
import type { ReviewQueue } from './review-queue';

export interface SelectionContext {
  /** The file's absolute path. */
  path: string;
  /** Which text the lines are of: what the file held (base) or what the agent proposed. */
  side: SelectionSide;
  /** The selected lines, whole, joined by '\n' (no line break after the last). */
  text: string;
  /** 0-based, both ends included. */
  startLine: number;
  endLine: number;
  /** Length of the last line: where the selection ends on it (0-based character). */
  endCharacter: number;
}

/** Takes a selection to the client's agent; rejects when the connection cannot carry it now. */
export type ContextSink = (selection: SelectionContext) => void | Promise<void>;

export class SelectionError extends Error {}

/** The selection `startLine`..`endLine` (0-based, inclusive) of one side of a review's file. */
export function selectionOf(
  queue: ReviewQueue,
  reviewId: string,
  fileIndex: number,
  side: SelectionSide,
  startLine: number,
  endLine: number,
): SelectionContext {
  const file = queue.contents(reviewId)[fileIndex];
  if (!file) throw new SelectionError(`The review has no file ${fileIndex}`);
  const lines = (side === 'base' ? file.baseText : file.proposedText).split(/\r?\n/);
  // A text ending in a line break has no line after it to select.
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  if (startLine > endLine || endLine >= lines.length) {
    throw new SelectionError(
      `Lines ${startLine + 1}-${endLine + 1} are not in the ${side === 'base' ? 'file' : 'proposal'} (it has ${lines.length})`,
    );
  }
  const selected = lines.slice(startLine, endLine + 1);
  const text = selected.join('\n');
  if (text.length > MAX_SELECTION_CHARS) {
    throw new SelectionError(`Too much to send: select at most ${MAX_SELECTION_CHARS} characters`);
  }
  return {
    path: file.path,
    side,
    text,
    startLine,
    endLine,
    endCharacter: selected[selected.length - 1]!.length,
  };
}
