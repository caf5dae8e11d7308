/**
 * One comment on a line, in the box under its line (diff-editor/use-comment-zones.ts): its text with
 * Edit and Remove, or, while written or edited, a text box with Save and Cancel (Ctrl/Cmd+Enter saves,
 * Escape cancels). The box's keys never reach the editor or the review keys (comment-zones.ts), so they
 * are read here natively, on the text box itself.
 */
import { useEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { MAX_COMMENT_CHARS } from '../../shared/review-comments';
import type { CommentSide } from '../../shared/review-comments';
import { MOD } from '../keys/keyboard';
import type { CommentBox } from './diff-editor/use-comment-zones';
import { useReviewUi } from './review-ui';

export interface LineCommentProps {
  /** The line as a person counts it (1-based), and which text it is of. */
  label: string;
  text: string;
  editing: boolean;
  /** Comments can be changed (a pending review). */
  changeable: boolean;
  onEdit(): void;
  /** Saves `text` ('' removes the comment); resolves false when it was refused. */
  onSave(text: string): Promise<boolean>;
  onCancel(): void;
}

export function LineComment(props: LineCommentProps) {
  const { label, text, editing, changeable } = props;
  return (
    <div
      className="dt-line-comment"
      data-testid="line-comment"
      data-editing={editing ? 'true' : 'false'}
      role="group"
      aria-label={`Comment on ${label}`}
    >
      {editing ? (
        <CommentEditor {...props} />
      ) : (
        <>
          <p className="dt-line-comment-text">{text}</p>
          {changeable && (
            <div className="dt-line-comment-buttons">
              <button type="button" onClick={props.onEdit}>
                Edit
              </button>
              <button type="button" onClick={() => void props.onSave('')}>
                Remove
              </button>
            </div>
          )}
        </>
      )}
    </div>
  );
}

function CommentEditor({ label, text, onSave, onCancel }: LineCommentProps) {
  const [value, setValue] = useState(text);
  const box = useRef<HTMLTextAreaElement>(null);
  // What the native key listener reads when it fires.
  const latest = useRef({ value, onSave, onCancel });
  useEffect(() => {
    latest.current = { value, onSave, onCancel };
  });

  useEffect(() => {
    const textarea = box.current;
    if (!textarea) return;
    // After the click or key that opened it is done with focus (Monaco focuses its own editor then).
    const frame = requestAnimationFrame(() => textarea.focus());
    const onKeyDown = (e: KeyboardEvent): void => {
      if (e.key === 'Escape') {
        e.preventDefault();
        latest.current.onCancel();
      } else if (e.key === 'Enter' && (e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey) {
        e.preventDefault();
        void latest.current.onSave(latest.current.value);
      }
    };
    textarea.addEventListener('keydown', onKeyDown);
    return () => {
      cancelAnimationFrame(frame);
      textarea.removeEventListener('keydown', onKeyDown);
    };
  }, []);

  return (
    <>
      <textarea
        ref={box}
        aria-label={`Comment on ${label}`}
        maxLength={MAX_COMMENT_CHARS}
        value={value}
        placeholder={`Your comment for the agent (${MOD}+Enter saves, Esc cancels)`}
        onChange={(e) => setValue(e.target.value)}
      />
      <div className="dt-line-comment-buttons">
        <button type="button" onClick={() => void onSave(value)}>
          Save
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </>
  );
}

/** A comment's line as the person reads it: "line 12", "line 12 of the original". */
export const commentLabel = (side: CommentSide, line: number): string =>
  `line ${line + 1}${side === 'base' ? ' of the original' : ''}`;

interface LineCommentsProps {
  reviewId: string;
  fileIndex: number;
  boxes: readonly CommentBox[];
  changeable: boolean;
  /** Saves a comment ('' removes it); resolves false when main refused it. */
  onComment(side: CommentSide, line: number, text: string): Promise<boolean>;
}

/** Every comment box of the file shown, each rendered into its node under its line. */
export function LineComments({ reviewId, fileIndex, boxes, changeable, onComment }: LineCommentsProps) {
  const setDraft = useReviewUi((s) => s.setCommentDraft);
  const closeDraft = (box: CommentBox): void => {
    const draft = useReviewUi.getState().commentDraft;
    if (
      draft?.reviewId === reviewId &&
      draft.fileIndex === fileIndex &&
      draft.side === box.side &&
      draft.line === box.line
    ) {
      setDraft(null);
    }
  };
  return (
    <>
      {boxes.map((box) =>
        createPortal(
          <LineComment
            label={commentLabel(box.side, box.line)}
            text={box.text}
            editing={box.editing}
            changeable={changeable}
            onEdit={() => setDraft({ reviewId, fileIndex, side: box.side, line: box.line })}
            onSave={async (text) => {
              const saved = await onComment(box.side, box.line, text);
              if (saved) closeDraft(box);
              return saved;
            }}
            onCancel={() => closeDraft(box)}
          />,
          box.node,
          box.key,
        ),
      )}
    </>
  );
}
