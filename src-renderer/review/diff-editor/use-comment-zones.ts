/**
 * The person's comments on lines, each in a box under its line on its side of the diff
 * (comment-zones.ts), and the ways to start one: a click on a line number of either side, or the
 * comment key on the line of the cursor. The comment being written or edited is review-ui's
 * `commentDraft`; main keeps the saved ones (putComment).
 */
import { useEffect, useRef, useState, type RefObject } from 'react';
import type { CommentSide, ReviewComment } from '../../../shared/review-comments';
import { monaco } from '../monaco';
import { registerCommentOpener, useReviewUi, type CommentPlace } from '../review-ui';
import { CommentZones, type CommentZoneSpec } from './comment-zones';
import type { DiffSession } from './use-diff-session';
import type { ShownTexts } from './use-model-sync';

/** Room for a saved comment, and for the box a comment is written in. */
const SHOWN_HEIGHT_PX = 76;
const EDITING_HEIGHT_PX = 132;

/** A comment box to render: saved (`text`) or being written (`editing`), and the node it goes into. */
export interface CommentBox {
  key: string;
  side: CommentSide;
  /** 0-based line of that side's text. */
  line: number;
  text: string;
  editing: boolean;
  node: HTMLElement;
}

interface CommentFacts {
  reviewId: string;
  fileIndex: number;
  /** The comments of the file shown. */
  comments: readonly ReviewComment[];
  /** Comments can be added and changed (a pending review). */
  enabled: boolean;
}

const GUTTER_TARGETS: ReadonlySet<monaco.editor.MouseTargetType> = new Set([
  monaco.editor.MouseTargetType.GUTTER_LINE_NUMBERS,
  monaco.editor.MouseTargetType.GUTTER_GLYPH_MARGIN,
]);

export function useCommentZones(
  session: RefObject<DiffSession | null>,
  facts: CommentFacts,
  shown: ShownTexts,
): CommentBox[] {
  const latest = useRef(facts);
  useEffect(() => {
    latest.current = facts;
  });
  const zones = useRef<Record<CommentSide, CommentZones> | null>(null);
  const [boxes, setBoxes] = useState<CommentBox[]>([]);
  const draft = useReviewUi((s) => s.commentDraft);

  // Once per mount: the zones of both sides, the line-number clicks and the comment key.
  useEffect(() => {
    const current = session.current;
    if (!current) return;
    const original = current.editor.getOriginalEditor();
    const { modified } = current;
    const made = {
      base: new CommentZones(original, 'difftray.comments.base'),
      proposed: new CommentZones(modified, 'difftray.comments.proposed'),
    };
    zones.current = made;
    const open = (side: CommentSide, line: number): void => {
      const { reviewId, fileIndex, enabled } = latest.current;
      if (enabled) useReviewUi.getState().setCommentDraft({ reviewId, fileIndex, side, line });
    };
    const onGutter = (side: CommentSide, code: monaco.editor.ICodeEditor) =>
      code.onMouseDown((e) => {
        const { target } = e;
        if (GUTTER_TARGETS.has(target.type) && target.position) open(side, target.position.lineNumber - 1);
      });
    const subscriptions = [onGutter('base', original), onGutter('proposed', modified)];
    const unregister = registerCommentOpener(() => {
      const [side, code] = original.hasTextFocus()
        ? (['base', original] as const)
        : (['proposed', modified] as const);
      open(side, (code.getPosition()?.lineNumber ?? 1) - 1);
    });
    return () => {
      unregister();
      subscriptions.forEach((subscription) => subscription.dispose());
      made.base.dispose();
      made.proposed.dispose();
      zones.current = null;
    };
    // Once per mount: what changes is read through `latest`.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // Whatever makes useModelSync replace a text (as useHunkControls).
  const { loaded, fileKey, baseText, proposedText, contentRevision, revision } = shown;
  const mine =
    draft && draft.reviewId === facts.reviewId && draft.fileIndex === facts.fileIndex ? draft : null;
  const commentsKey = JSON.stringify(facts.comments);
  const draftKey = mine ? `${mine.side}:${mine.line}` : '';
  useEffect(() => {
    const made = zones.current;
    const current = session.current;
    if (!made || !current || !loaded) return;
    setBoxes(
      (['base', 'proposed'] as const).flatMap((side) => {
        const wanted = boxesOf(latest.current.comments, mine, side);
        const slots = made[side].show(wanted.map(toSpec));
        return wanted.map((box, i) => ({ ...box, node: slots[i]!.node }));
      }),
    );
    // The models' texts are what the zones are made on: after each replacement, again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [loaded, fileKey, baseText, proposedText, contentRevision, revision, commentsKey, draftKey]);

  return boxes;
}

type Wanted = Omit<CommentBox, 'node'>;

/** The boxes of one side: its comments by line, and the draft (a new comment, or one being edited). */
function boxesOf(
  comments: readonly ReviewComment[],
  draft: CommentPlace | null,
  side: CommentSide,
): Wanted[] {
  const boxes: Wanted[] = comments
    .filter((comment) => comment.side === side)
    .map((comment) => ({
      key: `${side}:${comment.line}`,
      side,
      line: comment.line,
      text: comment.text,
      editing: draft?.side === side && draft.line === comment.line,
    }));
  if (draft?.side === side && !boxes.some((box) => box.line === draft.line)) {
    boxes.push({ key: `${side}:${draft.line}`, side, line: draft.line, text: '', editing: true });
  }
  return boxes.sort((a, b) => a.line - b.line);
}

const toSpec = (box: Wanted): CommentZoneSpec => ({
  key: box.key,
  line: box.line,
  height: box.editing ? EDITING_HEIGHT_PX : SHOWN_HEIGHT_PX,
});
