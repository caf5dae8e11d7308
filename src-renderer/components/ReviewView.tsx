import { useEffect } from 'react';
import type { ReviewFileContent, ReviewFileSummary, ReviewSummary } from '../../shared/app-api';
import { useActions } from '../context';
import { useNow } from '../hooks';
import { contentKey, displayPath, endedBannerText, newerProposal } from '../review-model';
import { resolveCursor, useAppStore } from '../store';
import { formatAge } from '../time';
import { DiffEditor } from './DiffEditor';
import { FileTabs } from './FileTabs';
import { Toolbar } from './Toolbar';
import { ViewOptions } from './ViewOptions';

const NO_FOLDERS: string[] = [];

/** Contents come back in file order; match by path as well in case main ever reorders. */
function pickContent(
  files: ReviewFileContent[],
  file: ReviewFileSummary | undefined,
  index: number,
): ReviewFileContent | undefined {
  if (!file) return undefined;
  const atIndex = files[index];
  return atIndex?.path === file.path ? atIndex : files.find((content) => content.path === file.path);
}

export function ReviewView({ review }: { review: ReviewSummary }) {
  const actions = useActions();
  const key = contentKey(review);
  const entry = useAppStore((s) => s.contents[key]);
  const ref = useAppStore((s) => s.cursors[review.id]);
  const prefs = useAppStore((s) => s.prefs);
  const setCursor = useAppStore((s) => s.setCursor);
  const selectReview = useAppStore((s) => s.selectReview);
  const newer = useAppStore((s) => newerProposal(s.snapshot, review));
  // An ended review stays viewable, but nothing can be decided for it any more.
  const ended = review.state !== 'pending';
  const workspaceFolders = useAppStore((s) => s.snapshot?.workspaceFolders ?? NO_FOLDERS);
  const now = useNow();
  const cursor = resolveCursor(review, ref);
  const file = review.files[cursor.fileIndex];
  const content = entry?.status === 'ready' ? pickContent(entry.files, file, cursor.fileIndex) : undefined;

  useEffect(() => {
    if (!entry) void actions.loadContents(review);
  }, [actions, entry, review]);

  return (
    <section
      className="dt-review"
      aria-labelledby="dt-review-title"
      data-review-id={review.id}
      data-state={review.state}
    >
      <header className="dt-review-header">
        <h1 id="dt-review-title">{review.title}</h1>
        <p className="dt-review-meta">
          From <strong className="dt-review-client">{review.client.name}</strong>
          {review.client.version ? ` ${review.client.version}` : ''} · {formatAge(review.createdAt, now)}
          {!review.client.connected && ' · client disconnected'}
        </p>
        {review.description && review.description !== review.title && (
          <p className="dt-review-desc">{review.description}</p>
        )}
      </header>
      {ended && (
        <div className="dt-ended-banner" data-testid="ended-banner" data-state={review.state}>
          <p>
            <strong>{endedBannerText(review)}</strong> This review has ended: it can be looked at, not
            changed.
          </p>
          {newer && (
            <button type="button" onClick={() => selectReview(newer.id)}>
              Show the newer proposal
            </button>
          )}
        </div>
      )}
      <Toolbar review={review} cursor={cursor} readOnly={ended} />
      {review.files.length > 1 && (
        <FileTabs
          files={review.files}
          selected={cursor.fileIndex}
          onSelect={(fileIndex) => setCursor(review.id, { fileIndex, hunkIndex: 0 })}
        />
      )}
      {file && (
        <div className="dt-file-bar">
          <code className="dt-file-path" title={file.path}>
            {displayPath(file.path, workspaceFolders)}
          </code>
          {file.isNewFile && <span className="dt-badge">New file</span>}
          {file.hunks.length === 0 && <span className="dt-badge">No changes</span>}
          <ViewOptions />
        </div>
      )}
      <div className="dt-diff-pane">
        {file && content ? (
          <DiffEditor
            reviewId={review.id}
            fileIndex={cursor.fileIndex}
            content={content}
            hunks={file.hunks}
            currentHunk={cursor.hunkIndex}
            prefs={prefs}
            readOnly={ended}
            onDecide={(hunkIndex, decision) => void actions.decideHunk(cursor.fileIndex, hunkIndex, decision)}
            onSelectHunk={(hunkIndex) => setCursor(review.id, { fileIndex: cursor.fileIndex, hunkIndex })}
          />
        ) : entry?.status === 'error' ? (
          <div className="dt-pane-message" role="alert">
            <p>Could not load the proposed change: {entry.message}</p>
            <button type="button" onClick={() => void actions.loadContents(review)}>
              Retry
            </button>
          </div>
        ) : (
          <p className="dt-pane-message">Loading the proposed change…</p>
        )}
      </div>
    </section>
  );
}
