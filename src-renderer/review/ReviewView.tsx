import { memo, useEffect, useMemo } from 'react';
import type { ReviewFileContent, ReviewFileSummary, ReviewSummary } from '../../shared/app-api';
import { commentCount } from '../../shared/review-comments';
import { sentNoteText } from './agent-note';
import { approvalEndedText, approvalIcon, approvalLabel } from './approval-model';
import { useActions } from '../state/context';
import { highRiskBadge } from './file-status';
import { useNow } from '../state/hooks';
import { useHomePath } from '../state/home-path';
import { isPaused } from '../keys/key-pause';
import { installLineKeys } from '../keys/line-keys';
import { contentKey, droppedTextsText, endedBannerText, newerProposal } from './review-model';
import { reviewPath } from './remote-paths';
import { useReviewUi } from './review-ui';
import { resolveCursor, shownFiles, useAppStore } from '../state/store';
import { formatAge } from '../state/time';
import { AgentNoteBox } from './AgentNoteBox';
import { ApprovalCard } from './ApprovalCard';
import { BinaryPanel } from './BinaryPanel';
import { ConflictBanner } from './ConflictBanner';
import type { DiffEditorProps } from './diff-editor/diff-editor-props';
import { DiskBanner } from './DiskBanner';
import { DiffEditor, DiskDiff, ReadOnlyDiff } from './LazyEditorViews';
import { CompareToggle } from './CompareToggle';
import { otherBaseView } from './other-base';
import { Revealed } from './Revealed';
import { FileTabs } from './FileTabs';
import { Toolbar } from './Toolbar';
import { ViewOptions } from './ViewOptions';
import './review.css';

const NO_FOLDERS: string[] = [];

/** Contents come back in file order; match by path as well in case main ever reorders. */
function pickContent(
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
 * Memoized: it renders again only when its review (kept the same object while unchanged) changes, or
 * the file on screen does; the current hunk within the file is followed by CurrentHunkDiff and the counter.
 */
export const ReviewView = memo(function ReviewView({ review }: { review: ReviewSummary }) {
  const actions = useActions();
  const homePath = useHomePath();
  const key = contentKey(review);
  const entry = useAppStore((s) => s.contents[key]);
  // While a newer content revision loads (after an edit, a rebase), the last one stays on screen.
  const files = useAppStore((s) => shownFiles(s.contents, review));
  // The file only: a number, so moving between hunks of one file does not render the review again.
  const fileIndex = useAppStore((s) => resolveCursor(review, s.cursors[review.id]).fileIndex);
  const prefs = useAppStore((s) => s.prefs);
  const setCursor = useAppStore((s) => s.setCursor);
  const selectReview = useAppStore((s) => s.selectReview);
  const newer = useAppStore((s) => newerProposal(s.snapshot, review));
  const editing = useReviewUi((s) => s.editing);
  const setEditing = useReviewUi((s) => s.setEditing);
  const showDiskChanges = useReviewUi((s) => s.showDiskChanges);
  const showOtherBase = useReviewUi((s) => s.showOtherBase);
  // An ended review stays viewable, but nothing can be decided for it any more.
  const ended = review.state !== 'pending';
  const workspaceFolders = useAppStore((s) => s.snapshot?.workspaceFolders ?? NO_FOLDERS);
  const now = useNow();
  const file = review.files[fileIndex];
  const content = pickContent(files, file, fileIndex);
  const names = useMemo(
    () => review.files.map((f) => reviewPath(review, f.path, workspaceFolders)),
    [review, workspaceFolders],
  );
  const fileName = names[fileIndex] ?? file?.path ?? '';
  const fileComments = useMemo(
    () => review.comments?.filter((comment) => comment.fileIndex === fileIndex),
    [review.comments, fileIndex],
  );
  const highRisk = file && highRiskBadge(file.path);
  const nameOf = (path: string): string => reviewPath(review, path, workspaceFolders);
  // Conflict markers can only be edited out: the proposed side is editable while any remain.
  const conflicts = file?.conflicts ?? 0;
  const editable = !ended && !file?.binary && (editing || conflicts > 0);
  const showDisk = showDiskChanges && file !== undefined && file.disk.state !== 'unchanged' && !file.binary;
  const otherBase = file?.binary ? undefined : file?.otherBase;
  const otherBaseText = otherBase && showOtherBase && !showDisk ? content?.otherBaseText : undefined;

  // An approval card has no files, so nothing to load. The texts are usually asked for already, with
  // the review's hunks (live-state.ts); this loads a newer content revision, or again after an error.
  const approval = review.approval;
  useEffect(() => {
    if (!entry && !approval) void actions.loadContents(review);
  }, [actions, entry, review, approval]);

  // Each review starts with its own view state: no selection, not editing, no disk diff.
  useEffect(() => {
    useReviewUi.getState().resetForReview();
  }, [review.id]);

  // Ctrl/Cmd+Shift+Y / N decide the selected lines.
  useEffect(() => {
    if (ended || approval) return;
    return installLineKeys(window, (command) => {
      if (isPaused(useAppStore.getState().keyPause, Date.now())) return;
      void actions.decideSelectedLines(command === 'acceptLines' ? 'accepted' : 'rejected');
    });
  }, [actions, ended, approval]);

  const selectFile = (fileIndex: number): void => {
    const hunkCount = review.files[fileIndex]?.hunks.length ?? 0;
    setCursor(review.id, { fileIndex, hunkIndex: 0 });
    if (hunkCount === 0) useReviewUi.getState().setLineSelection(null);
  };
  const sentNote = ended ? sentNoteText(review) : null;

  return (
    <section
      className="dt-review"
      aria-labelledby="dt-review-title"
      data-review-id={review.id}
      data-state={review.state}
    >
      <header className="dt-review-header">
        <h1 id="dt-review-title">
          {approval && (
            <span className="dt-approval-icon" aria-hidden="true">
              {approvalIcon(approval)}
            </span>
          )}
          {approval ? <Revealed text={review.title} /> : review.title}
        </h1>
        {approval && review.title !== approvalLabel(approval) && (
          <p className="dt-review-desc">
            <Revealed text={approvalLabel(approval)} />
          </p>
        )}
        <p className="dt-review-meta">
          From <strong className="dt-review-client">{review.client.name}</strong>
          {review.client.version ? ` ${review.client.version}` : ''} · {formatAge(review.createdAt, now)}
          {!review.client.connected && ' · client disconnected'}
          {review.comments && (
            <span data-testid="comment-count"> · {commentCount(review.comments.length)}</span>
          )}
        </p>
        {review.description && review.description !== review.title && (
          <p className="dt-review-desc">{review.description}</p>
        )}
      </header>
      {ended && (
        <div className="dt-ended-banner" data-testid="ended-banner" data-state={review.state}>
          <p>
            <strong>{approval ? approvalEndedText(review) : endedBannerText(review)}</strong> This review has
            ended: it can be looked at, not changed.
          </p>
          {sentNote && (
            <p className="dt-ended-note" data-testid="sent-note">
              {sentNote}
            </p>
          )}
          {review.notes?.map((note) => (
            <p key={note} className="dt-ended-note" data-testid="review-note">
              {note}
            </p>
          ))}
          {newer && (
            <button type="button" onClick={() => selectReview(newer.id)}>
              Show the newer proposal
            </button>
          )}
        </div>
      )}
      {approval ? (
        <ApprovalCard review={review} approval={approval} readOnly={ended} />
      ) : (
        <>
          <Toolbar review={review} fileIndex={fileIndex} readOnly={ended} fileName={nameOf} />
          {!ended && <AgentNoteBox review={review} />}
          <DiskBanner
            review={review}
            fileIndex={fileIndex}
            names={names}
            readOnly={ended}
            onSelectFile={selectFile}
          />
          {file && <ConflictBanner conflicts={conflicts} name={fileName} readOnly={ended} />}
          {review.files.length > 1 && (
            <FileTabs
              files={review.files}
              names={names}
              selected={fileIndex}
              readOnly={ended}
              onSelect={selectFile}
            />
          )}
          {file && (
            <div className="dt-file-bar">
              <code className="dt-file-path" title={homePath(file.path)}>
                {fileName}
              </code>
              {highRisk && (
                <strong
                  className="dt-badge dt-badge-high-risk"
                  data-testid="high-risk-mark"
                  title={highRisk.title}
                >
                  {highRisk.label}
                </strong>
              )}
              {file.isNewFile && <span className="dt-badge">New file</span>}
              {file.binary && <span className="dt-badge">Binary</span>}
              {!file.binary && file.hunks.length === 0 && <span className="dt-badge">No changes</span>}
              {!ended && !file.binary && (
                <button
                  type="button"
                  className="dt-edit-toggle"
                  aria-pressed={editable}
                  disabled={conflicts > 0}
                  title={
                    conflicts > 0
                      ? 'The proposal stays editable until its conflicts are resolved'
                      : 'Edit the proposed text (right side) before accepting; your edits become part of the result'
                  }
                  onClick={() => setEditing(!editing)}
                >
                  ✎ Edit proposal
                </button>
              )}
              {editable && (
                <span className="dt-badge dt-badge-editing" data-testid="editing-badge">
                  Editing the proposal — changes are saved as you type
                </span>
              )}
              {otherBase && <CompareToggle kind={otherBase} />}
              <ViewOptions />
            </div>
          )}
          <div className="dt-diff-pane">
            {file?.binary ? (
              <BinaryPanel
                file={file}
                fileIndex={fileIndex}
                name={fileName}
                withButtons={review.files.length === 1}
                readOnly={ended}
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
                readOnly={ended}
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
          </div>
        </>
      )}
    </section>
  );
});
