import { useMemo } from 'react';
import type { ReviewFileContent, ReviewFileSummary, ReviewSummary } from '../../shared/app-api';
import { useActions } from '../state/context';
import { resolveCursor, useAppStore, type ContentEntry } from '../state/store';
import { BinaryPanel } from './BinaryPanel';
import type { DiffEditorProps } from './diff-editor/diff-editor-props';
import { DiffEditor, DiskDiff, ReadOnlyDiff } from './LazyEditorViews';
import { otherBaseView } from './other-base';
import { droppedTextsText } from './review-model';
import { useReviewUi } from './review-ui';
import { SelectionActions } from './SelectionActions';

/** Contents come back in file order; match by path as well in case main ever reorders. */
export function pickContent(
  files: ReviewFileContent[] | undefined,
  file: ReviewFileSummary | undefined,
  index: number,
): ReviewFileContent | undefined {
  if (!file || !files) return undefined;
  const atIndex = files[index];
  return atIndex?.path === file.path ? atIndex : files.find((content) => content.path === file.path);
}

/**
 * The diff with the current hunk. The one part of the review that follows the hunk cursor, so moving
 * to another hunk renders this (and the counter, and the two HunkBars whose state changed), not the
 * whole review.
 */
function CurrentHunkDiff(props: Omit<DiffEditorProps, 'currentHunk'> & { review: ReviewSummary }) {
  const { review, ...rest } = props;
  const currentHunk = useAppStore((s) => resolveCursor(review, s.cursors[review.id]).hunkIndex);
  return <DiffEditor {...rest} currentHunk={currentHunk} />;
}

/**
 * The pane that takes the room left: the proposal's diff (or base → disk, the other starting point, a
 * binary file's panel, why the texts are missing), with the actions on the lines selected in it.
 */
export function DiffPane({
  review,
  fileIndex,
  content,
  entry,
  fileName,
  readOnly,
  editable,
}: {
  review: ReviewSummary;
  fileIndex: number;
  content: ReviewFileContent | undefined;
  /** How the review's texts are loading (undefined: not asked yet). */
  entry: ContentEntry | undefined;
  fileName: string;
  readOnly: boolean;
  editable: boolean;
}) {
  const actions = useActions();
  const prefs = useAppStore((s) => s.prefs);
  const setCursor = useAppStore((s) => s.setCursor);
  const showDiskChanges = useReviewUi((s) => s.showDiskChanges);
  const showOtherBase = useReviewUi((s) => s.showOtherBase);
  const file = review.files[fileIndex];
  const fileComments = useMemo(
    () => review.comments?.filter((comment) => comment.fileIndex === fileIndex),
    [review.comments, fileIndex],
  );
  const showDisk = showDiskChanges && file !== undefined && file.disk.state !== 'unchanged' && !file.binary;
  const otherBase = file?.binary ? undefined : file?.otherBase;
  const otherBaseText = otherBase && showOtherBase && !showDisk ? content?.otherBaseText : undefined;

  return (
    <div className="dt-diff-pane">
      {file?.binary ? (
        <BinaryPanel
          file={file}
          fileIndex={fileIndex}
          name={fileName}
          withButtons={review.files.length === 1}
          readOnly={readOnly}
        />
      ) : file && content && showDisk ? (
        <DiskDiff
          path={content.path}
          baseText={content.baseText}
          diskText={content.diskText}
          deleted={file.disk.state === 'deleted'}
        />
      ) : file && content && otherBase && otherBaseText !== undefined ? (
        <ReadOnlyDiff
          path={content.path}
          original={otherBaseText}
          modified={content.proposedText}
          {...otherBaseView(otherBase)}
          testId="other-base-diff"
        />
      ) : file && !content && entry?.status === 'dropped' ? (
        <div className="dt-pane-message" role="status" data-testid="texts-dropped">
          <p>{droppedTextsText(review)}</p>
        </div>
      ) : file && (content || entry?.status !== 'error') ? (
        <CurrentHunkDiff
          review={review}
          reviewId={review.id}
          fileIndex={fileIndex}
          content={content}
          revision={file.contentRevision}
          hunks={file.hunks}
          prefs={prefs}
          readOnly={readOnly}
          editable={editable}
          onDecide={(hunkIndex, decision) => void actions.decideHunk(fileIndex, hunkIndex, decision)}
          onSelectHunk={(hunkIndex) => setCursor(review.id, { fileIndex, hunkIndex })}
          onEdit={(fileIndex, text) => actions.editProposal(fileIndex, text)}
          comments={fileComments}
          onComment={(side, line, text) => actions.putComment(fileIndex, side, line, text)}
        />
      ) : entry?.status === 'error' ? (
        <div className="dt-pane-message" role="alert">
          <p>Could not load the proposed change: {entry.message}</p>
          <button type="button" onClick={() => void actions.loadContents(review)}>
            Retry
          </button>
        </div>
      ) : null}
      <SelectionActions review={review} fileIndex={fileIndex} readOnly={readOnly} />
    </div>
  );
}
