import { useEffect, useMemo } from 'react';
import { useActions } from '../context';
import { installKeyboard, type Command } from '../keyboard';
import { endedReviews, findReview, pendingReviews } from '../review-model';
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
  const ended = useMemo(() => endedReviews(snapshot), [snapshot]);
  // Ended reviews are shown too (read-only): one the agent ended stays on screen, and any recent one
  // can be opened again from the queue's "Ended" list.
  const shown = findReview(snapshot, selectedReviewId);

  // The window title counts what waits, so the taskbar tells without opening the window.
  useEffect(() => {
    document.title = queue.length > 0 ? `DiffTray (${queue.length})` : 'DiffTray';
  }, [queue.length]);

  useEffect(() => {
    const store = useAppStore.getState;
    const run = (command: Command): void => {
      // Nothing can be decided for an ended review: decision keys do nothing there, quietly.
      const { snapshot: current, selectedReviewId: selectedId } = store();
      const decidable = findReview(current, selectedId)?.state === 'pending';
      switch (command) {
        case 'nextHunk':
          store().moveCursor(1);
          return;
        case 'prevHunk':
          store().moveCursor(-1);
          return;
        case 'acceptHunk':
          if (decidable) void actions.decideCurrent('accepted');
          return;
        case 'rejectHunk':
          if (decidable) void actions.decideCurrent('rejected');
          return;
        case 'acceptAll':
          if (decidable) void actions.decideAll('accepted');
          return;
        case 'rejectAll':
          if (decidable) void actions.decideAll('rejected');
          return;
        case 'undo':
          if (decidable) void actions.undo();
          return;
        case 'submit':
          if (decidable) void actions.submit();
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
          <QueueList reviews={queue} ended={ended} selectedId={shown?.id ?? null} />
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
