import { memo, useEffect, useMemo } from 'react';
import type { ReviewSummary } from '../../shared/app-api';
import { useActions } from '../state/context';
import { isPaused } from '../keys/key-pause';
import { installLineKeys } from '../keys/line-keys';
import { contentKey } from './review-model';
import { reviewPath } from './remote-paths';
import { useReviewUi } from './review-ui';
import { resolveCursor, shownFiles, useAppStore } from '../state/store';
import { AgentNoteBox } from './AgentNoteBox';
import { ApprovalCard } from './ApprovalCard';
import { ConflictBanner } from './ConflictBanner';
import { DiffPane, pickContent } from './DiffPane';
import { DiskBanner } from './DiskBanner';
import { EndedBanner } from './EndedBanner';
import { FileBar } from './FileBar';
import { FileTabs } from './FileTabs';
import { ReviewHeader } from './ReviewHeader';
import { SubmitSummary, Toolbar } from './Toolbar';
import './review.css';

const NO_FOLDERS: string[] = [];

/**
 * One review on screen: its header, then (for files) one toolbar row, the note with what Submit will
 * send, the banners, the file tabs and bar, and the diff, which takes the room left. Memoized: it renders again only when its
 * review (kept the same object while unchanged) changes, or the file on screen does; the current hunk
 * within the file is followed by the diff and the counter.
 */
export const ReviewView = memo(function ReviewView({ review }: { review: ReviewSummary }) {
  const actions = useActions();
  const key = contentKey(review);
  const entry = useAppStore((s) => s.contents[key]);
  // While a newer content revision loads (after an edit, a rebase), the last one stays on screen.
  const files = useAppStore((s) => shownFiles(s.contents, review));
  // The file only: a number, so moving between hunks of one file does not render the review again.
  const fileIndex = useAppStore((s) => resolveCursor(review, s.cursors[review.id]).fileIndex);
  const setCursor = useAppStore((s) => s.setCursor);
  const editing = useReviewUi((s) => s.editing);
  // An ended review stays viewable, but nothing can be decided for it any more.
  const ended = review.state !== 'pending';
  const workspaceFolders = useAppStore((s) => s.snapshot?.workspaceFolders ?? NO_FOLDERS);
  const file = review.files[fileIndex];
  const content = pickContent(files, file, fileIndex);
  const names = useMemo(
    () => review.files.map((f) => reviewPath(review, f.path, workspaceFolders)),
    [review, workspaceFolders],
  );
  const fileName = names[fileIndex] ?? file?.path ?? '';
  const nameOf = (path: string): string => reviewPath(review, path, workspaceFolders);
  // Conflict markers can only be edited out: the proposed side is editable while any remain.
  const conflicts = file?.conflicts ?? 0;
  const editable = !ended && !file?.binary && (editing || conflicts > 0);

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

  return (
    <section
      className="dt-review"
      aria-labelledby="dt-review-title"
      data-review-id={review.id}
      data-state={review.state}
    >
      <ReviewHeader review={review} />
      {ended && <EndedBanner review={review} />}
      {approval ? (
        <ApprovalCard review={review} approval={approval} readOnly={ended} />
      ) : (
        <>
          <Toolbar review={review} fileIndex={fileIndex} readOnly={ended} fileName={nameOf} />
          {!ended && <AgentNoteBox review={review} aside={<SubmitSummary review={review} />} />}
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
          {file && <FileBar file={file} fileName={fileName} readOnly={ended} editable={editable} />}
          <DiffPane
            review={review}
            fileIndex={fileIndex}
            content={content}
            entry={entry}
            fileName={fileName}
            readOnly={ended}
            editable={editable}
          />
        </>
      )}
    </section>
  );
});
