/**
 * Monaco's diff editor showing base vs proposed, with a control zone above each of main's hunks.
 * This component composes the parts of this folder, each with one job:
 *
 * - use-diff-session: the editor and what lives as long as it does (created once per mount)
 * - use-model-sync: main's texts into the models (text-models.ts)
 * - proposal-edits: the person's edits of the proposal, debounced to main
 * - use-hunk-controls: zones above the hunks and the controls on screen (hunk-zones.ts)
 * - use-comment-zones: the person's comments in boxes under their lines (comment-zones.ts, LineComment)
 * - unfold-hunks: main's hunks kept out of "Hide unchanged lines" folds
 * - use-hunk-decorations: hunk states and the current hunk (decorations.ts)
 * - use-editor-options, use-conflict-jump: options and the jump to the first conflict marker
 * - use-diff-readiness: `data-diff-ready`, editsPending, revealing the current hunk
 *
 * `data-diff-ready="true"` on the wrapper means: Monaco finished computing the diff for the current
 * texts, the controls of the hunks on screen are in place, and main's hunks describe the text shown
 * (no edit of the person's is still on its way). End-to-end tests and the bench wait for it.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import type { HunkDecision } from '../../../shared/hunks';
import type { ReviewComment } from '../../../shared/review-comments';
import { HunkBar } from '../HunkBar';
import { LineComments } from '../LineComment';
import type { DiffEditorProps } from './diff-editor-props';
import { GeometryVersion } from './hunk-geometry';
import { useCommentZones } from './use-comment-zones';
import { useConflictJump } from './use-conflict-jump';
import { useDiffReadiness } from './use-diff-readiness';
import { useDiffSession } from './use-diff-session';
import { useEditable, useViewPrefs } from './use-editor-options';
import { useHunkControls } from './use-hunk-controls';
import { useHunkDecorations } from './use-hunk-decorations';
import { useModelSync, type ShownTexts } from './use-model-sync';
import './DiffEditor.css';

export type { DiffEditorProps };

const NO_COMMENTS: readonly ReviewComment[] = [];

export function DiffEditor(props: DiffEditorProps) {
  const { reviewId, fileIndex, content, revision, hunks, currentHunk, prefs } = props;
  const { readOnly = false, editable = false } = props;
  const wrapperRef = useRef<HTMLDivElement>(null);
  const hostRef = useRef<HTMLDivElement>(null);
  // What the editor's own callbacks (Monaco events, debounced sends) read when they fire.
  const latestRef = useRef(props);
  useEffect(() => {
    latestRef.current = props;
  });
  // Changes only when the hunks' line ranges do; the same hunks array costs nothing (key presses).
  const [geometryVersion] = useState(() => new GeometryVersion());
  const geometry = useMemo(() => geometryVersion.of(hunks), [geometryVersion, hunks]);
  // Stable, so the HunkBars on screen re-render only when their own hunk or place changes.
  const decide = useCallback(
    (hunkIndex: number, decision: HunkDecision) => latestRef.current.onDecide(hunkIndex, decision),
    [],
  );
  const select = useCallback((hunkIndex: number) => latestRef.current.onSelectHunk(hunkIndex), []);
  const comment = useCallback(
    async (side: 'base' | 'proposed', line: number, text: string) =>
      (await latestRef.current.onComment?.(side, line, text)) ?? false,
    [],
  );
  const commentable = !readOnly && props.onComment !== undefined;
  const path = content?.path ?? '';
  const shown: ShownTexts = {
    loaded: content !== undefined,
    reviewId,
    fileIndex,
    fileKey: `${reviewId}|${fileIndex}|${path}`,
    path,
    baseText: content?.baseText ?? '',
    proposedText: content?.proposedText ?? '',
    contentRevision: content?.contentRevision ?? -1,
    revision,
  };
  const canEdit = editable && !readOnly;

  // The order matters: effects run in it, and each reads what the ones before it set up.
  const handle = useDiffSession(hostRef, latestRef);
  const { session } = handle;
  // Before the texts go in: Monaco starts its diff with the options it has then, and changing one it
  // uses (ignoring whitespace) afterwards would have the diff computed a second time.
  useViewPrefs(session, prefs);
  useModelSync(session, shown);
  const controls = useHunkControls(session, hunks, geometry, shown);
  const commentBoxes = useCommentZones(
    session,
    { reviewId, fileIndex, comments: props.comments ?? NO_COMMENTS, enabled: commentable },
    shown,
  );
  useEditable(session, canEdit);
  useConflictJump(session);
  useHunkDecorations(session, hunks, currentHunk, geometry, shown);
  useDiffReadiness(wrapperRef, handle, controls, hunks, currentHunk, geometry, shown);

  return (
    <div
      ref={wrapperRef}
      className="dt-diff"
      data-testid="diff-editor"
      data-diff-ready="false"
      data-editing={canEdit ? 'true' : 'false'}
      data-current-hunk={currentHunk === null ? '' : String(currentHunk + 1)}
    >
      <div ref={hostRef} className="dt-diff-host" />
      {!shown.loaded && <p className="dt-pane-message dt-diff-loading">Loading the proposed change…</p>}
      {controls.slots.map(({ position, node }) => {
        const hunk = hunks[position];
        return hunk
          ? createPortal(
              <HunkBar
                hunk={hunk}
                position={position}
                current={position === currentHunk}
                readOnly={readOnly}
                onDecide={decide}
                onSelect={select}
              />,
              node,
              `${controls.placedKey}#${position}`,
            )
          : null;
      })}
      <LineComments
        reviewId={reviewId}
        fileIndex={fileIndex}
        boxes={commentBoxes}
        changeable={commentable}
        onComment={comment}
      />
    </div>
  );
}
