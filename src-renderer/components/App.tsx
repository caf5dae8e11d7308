import { useEffect, useMemo } from 'react';
import { useActions } from '../context';
import { installKeyboard, type Command } from '../keyboard';
import { findReview, pendingReviews } from '../review-model';
import { useAppStore } from '../store';
import { ConnectionBanner } from './ConnectionBanner';
import { EmptyState } from './EmptyState';
import { LiveRegion } from './LiveRegion';
import { QueueList } from './QueueList';
import { ReviewView } from './ReviewView';
import { ShortcutLegend } from './ShortcutLegend';

export function App() {
  const actions = useActions();
  const snapshot = useAppStore((s) => s.snapshot);
  const selectedReviewId = useAppStore((s) => s.selectedReviewId);
  const queue = useMemo(() => pendingReviews(snapshot), [snapshot]);
  const review = findReview(snapshot, selectedReviewId);
  const shown = review?.state === 'pending' ? review : undefined;

  // The window title counts what waits, so the taskbar tells without opening the window.
  useEffect(() => {
    document.title = queue.length > 0 ? `DiffTray (${queue.length})` : 'DiffTray';
  }, [queue.length]);

  useEffect(() => {
    const store = useAppStore.getState;
    const run = (command: Command): void => {
      switch (command) {
        case 'nextHunk':
          store().moveCursor(1);
          return;
        case 'prevHunk':
          store().moveCursor(-1);
          return;
        case 'acceptHunk':
          void actions.decideCurrent('accepted');
          return;
        case 'rejectHunk':
          void actions.decideCurrent('rejected');
          return;
        case 'acceptAll':
          void actions.decideAll('accepted');
          return;
        case 'rejectAll':
          void actions.decideAll('rejected');
          return;
        case 'undo':
          void actions.undo();
          return;
        case 'submit':
          void actions.submit();
          return;
        case 'nextReview':
          store().selectAdjacentReview(1);
          return;
        case 'prevReview':
          store().selectAdjacentReview(-1);
          return;
      }
    };
    return installKeyboard(window, run);
  }, [actions]);

  return (
    <div className="dt-app">
      <ConnectionBanner />
      <div className="dt-layout">
        <aside className="dt-sidebar">
          <QueueList reviews={queue} selectedId={shown?.id ?? null} />
          <ShortcutLegend />
        </aside>
        <main className="dt-main">
          {shown ? <ReviewView key={shown.id} review={shown} /> : <EmptyState snapshot={snapshot} />}
        </main>
      </div>
      <LiveRegion />
    </div>
  );
}
