import { useEffect, useMemo, useRef, useState } from 'react';
import type { AppSnapshot } from '../../shared/app-api';
import { useNoteDrafts } from '../review/agent-note';
import { useActions } from '../state/context';
import { ignoredDuringPause, type KeyPause } from '../keys/key-pause';
import { installKeyboard, type Command } from '../keys/keyboard';
import { findReview, pendingReviews } from '../review/review-model';
import { focusAgentNote, openCommentAtCursor } from '../review/review-ui';
import { newStatusLines } from '../state/sidebar-model';
import { useSettingsView } from '../settings/settings-view';
import { useAppStore } from '../state/store';
import { whenIdleAfterPaint } from '../state/lazy-module';
import { ConnectionBanner } from './ConnectionBanner';
import { ConnectionPrompts } from './ConnectionPrompts';
import { preloadEditor } from '../review/editor-loader';
import { AgentHooksDialog, preloadSettingsViews, SettingsView } from '../settings/LazySettingsViews';
import { EmptyState } from './EmptyState';
import { LiveRegion } from './LiveRegion';
import { ReviewView } from '../review/ReviewView';
import { Sidebar } from './Sidebar';
import { useThemeSync } from './ThemeSwitch';
import '../review/notes-approvals.css';

/**
 * True while decision keys are paused for a review that came up by itself; flips back on time, and the
 * status line then stops saying that keys are paused.
 */
function useKeysPaused(): boolean {
  const pause = useAppStore((s) => s.keyPause);
  const [expired, setExpired] = useState<KeyPause | null>(null);
  useEffect(() => {
    if (!pause) return;
    const timer = window.setTimeout(
      () => {
        setExpired(pause);
        useAppStore.getState().endKeyPause(pause);
      },
      Math.max(0, pause.until - Date.now()),
    );
    return () => window.clearTimeout(timer);
  }, [pause]);
  return pause !== null && expired !== pause;
}

/** Reads out status messages clients send, politely, through the one live region. */
function useClientStatusAnnouncements(snapshot: AppSnapshot | null): void {
  const previous = useRef<AppSnapshot | null>(null);
  useEffect(() => {
    if (!snapshot) return;
    const lines = newStatusLines(previous.current, snapshot);
    previous.current = snapshot;
    if (lines.length > 0) useAppStore.getState().announce(lines.join('. '));
  }, [snapshot]);
}

/** The keys that mean something while Settings is on screen: moving to a review (which closes it). */
const SETTINGS_COMMANDS: ReadonlySet<Command> = new Set<Command>(['nextReview', 'prevReview']);

/** The keys that mean something on an approval card. */
const CARD_COMMANDS: ReadonlySet<Command> = new Set<Command>([
  'submit',
  'nextReview',
  'prevReview',
  'focusNote',
]);

export function App() {
  const actions = useActions();
  const snapshot = useAppStore((s) => s.snapshot);
  const selectedReviewId = useAppStore((s) => s.selectedReviewId);
  const queue = useMemo(() => pendingReviews(snapshot), [snapshot]);
  // Ended reviews are shown too (read-only): one the agent ended stays on screen, and any ended one
  // can be opened again from History.
  const shownItem = findReview(snapshot, selectedReviewId);
  // The review on screen with its hunks; null for the moment they take to arrive.
  const shown = useAppStore((s) => s.selected);
  const keysPaused = useKeysPaused();
  const settingsOpen = useSettingsView((s) => s.open);
  useThemeSync();
  useClientStatusAnnouncements(snapshot);

  // Monaco loads once the first screen (the queue) is painted, so a click on a review rarely waits.
  const shownFirstScreen = snapshot !== null;
  useEffect(() => (shownFirstScreen ? preloadEditor() : undefined), [shownFirstScreen]);
  // Settings and the hooks dialog are not on the first screen either (LazySettingsViews.tsx).
  useEffect(
    () => (shownFirstScreen ? whenIdleAfterPaint(preloadSettingsViews) : undefined),
    [shownFirstScreen],
  );

  // A draft note lives as long as its review waits.
  useEffect(() => {
    useNoteDrafts.getState().keepOnly(new Set(queue.map((review) => review.id)));
  }, [queue]);

  // The window title counts what waits, so the taskbar tells without opening the window. Set in a task
  // of its own: setting it costs the browser a round trip (~0.4 ms), which the commit that shows an
  // arriving review in the queue should not wait for.
  useEffect(() => {
    const title = queue.length > 0 ? `DiffTray (${queue.length})` : 'DiffTray';
    const timer = window.setTimeout(() => {
      if (document.title !== title) document.title = title;
    }, 0);
    return () => window.clearTimeout(timer);
  }, [queue.length]);

  useEffect(() => {
    const store = useAppStore.getState;
    const run = (command: Command): void => {
      // A review that came up by itself does not take decision keys meant for the one before it.
      if (ignoredDuringPause(command, store().keyPause, Date.now())) return;
      // The review is not on screen behind Settings: nothing in it is decided blind.
      if (useSettingsView.getState().open && !SETTINGS_COMMANDS.has(command)) return;
      // Nothing can be decided for an ended review: decision keys do nothing there, quietly.
      const review = store().selected ?? undefined;
      const decidable = review?.state === 'pending';
      // An approval card has no hunks: only submit (Allow) and moving between reviews apply.
      if (review?.approval && !CARD_COMMANDS.has(command)) return;
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
        case 'comment':
          if (decidable) openCommentAtCursor();
          return;
        case 'focusNote':
          if (decidable) focusAgentNote();
          return;
      }
    };
    return installKeyboard(window, run);
  }, [actions]);

  return (
    <div className="dt-app" data-keys-paused={keysPaused ? 'true' : undefined}>
      <ConnectionBanner />
      <ConnectionPrompts requests={snapshot?.connectionRequests ?? []} />
      <div className="dt-layout">
        <aside className="dt-sidebar" aria-label="Sidebar">
          <Sidebar snapshot={snapshot} selectedId={shownItem?.id ?? null} />
        </aside>
        <main className="dt-main">
          {settingsOpen ? (
            <SettingsView snapshot={snapshot} />
          ) : shown ? (
            <ReviewView key={shown.id} review={shown} />
          ) : shownItem ? (
            <p className="dt-pane-message">Loading the review…</p>
          ) : snapshot === null ? (
            // Until main's state is in, nothing is known: no "No reviews waiting", no guides drawn for
            // the moment it takes (the banner says DiffTray is being reached).
            <p className="dt-pane-message">Loading the reviews…</p>
          ) : (
            <EmptyState snapshot={snapshot} />
          )}
        </main>
      </div>
      <LiveRegion />
      <AgentHooksDialog />
    </div>
  );
}
