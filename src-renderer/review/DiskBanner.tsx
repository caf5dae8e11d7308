import type { ReviewSummary } from '../../shared/app-api';
import { useActions } from '../state/context';
import { diskChangeText, filesChangedOnDisk } from './file-status';
import { useNow } from '../state/hooks';
import { useReviewUi } from './review-ui';

/**
 * Someone changed a file on disk while the review waited. Says which and when, and offers what can be
 * done: look at the change (a diff of base → disk in the diff area), rebase the proposal onto it, or
 * reject the review. Submit is refused by main meanwhile. Not role="alert": Monaco uses alerts and
 * this must not be confused with them; a labelled region is found as easily.
 */
export function DiskBanner({
  review,
  fileIndex,
  names,
  readOnly = false,
  onSelectFile,
}: {
  review: ReviewSummary;
  /** The file on screen. */
  fileIndex: number;
  names: string[];
  readOnly?: boolean;
  onSelectFile: (fileIndex: number) => void;
}) {
  const actions = useActions();
  const now = useNow();
  const showing = useReviewUi((s) => s.showDiskChanges);
  const setShowing = useReviewUi((s) => s.setShowDiskChanges);
  const setRejecting = useReviewUi((s) => s.setRejectOpen);
  const changed = filesChangedOnDisk(review);
  if (changed.length === 0) return null;
  const file = review.files[fileIndex];
  const here = file !== undefined && file.disk.state !== 'unchanged';
  const others = changed.filter((index) => index !== fileIndex);
  const name = (index: number): string => names[index] ?? review.files[index]?.path ?? '';

  return (
    <div className="dt-disk-banner" data-testid="disk-banner" role="region" aria-label="Changed on disk">
      {here && file && (
        <>
          <p>
            <strong>{diskChangeText(name(fileIndex), file, now)}</strong> since the proposal was made.{' '}
            {readOnly
              ? ''
              : 'Submitting would overwrite that change, so it is refused: rebase the proposal onto the file on disk, or reject the review.'}
          </p>
          <div className="dt-banner-buttons">
            <button
              type="button"
              aria-pressed={showing}
              disabled={file.binary}
              title={
                file.binary
                  ? 'A binary file cannot be shown as a diff'
                  : 'Show what changed on disk since the proposal was made'
              }
              onClick={() => setShowing(!showing)}
            >
              Show disk changes
            </button>
            {!readOnly && (
              <>
                <button
                  type="button"
                  title="Adopt the file on disk as the base and merge the proposal onto it"
                  onClick={() => void actions.rebase(fileIndex)}
                >
                  Rebase onto disk
                </button>
                <button type="button" className="dt-danger" onClick={() => setRejecting(true)}>
                  Reject…
                </button>
              </>
            )}
          </div>
        </>
      )}
      {others.length > 0 && (
        <p className="dt-disk-others">
          {here
            ? 'Also changed on disk: '
            : `${others.length === 1 ? 'A file' : 'Files'} of this review changed on disk: `}
          {others.map((index, i) => {
            const other = review.files[index];
            return (
              <span key={index}>
                {i > 0 && ', '}
                {other ? diskChangeText(name(index), other, now) : name(index)}{' '}
                <button type="button" className="dt-link" onClick={() => onSelectFile(index)}>
                  Show {name(index)}
                </button>
              </span>
            );
          })}
        </p>
      )}
    </div>
  );
}
