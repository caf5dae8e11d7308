import { useEffect } from 'react';
import { staleIn } from '../state/status-line';
import { useAppStore } from '../state/store';

/**
 * One polite status line: visible, and read out by screen readers ("Hunk 2 accepted"). Its message goes
 * when it goes stale (status-line.ts), so nothing old stays on screen as if it were news.
 */
export function LiveRegion() {
  const announcement = useAppStore((s) => s.announcement);
  const said = useAppStore((s) => s.said);
  useEffect(() => {
    const wait = staleIn({ said }, Date.now());
    if (wait === null) return undefined;
    const timer = window.setTimeout(() => useAppStore.getState().clearStaleStatus(Date.now()), wait);
    return () => window.clearTimeout(timer);
  }, [said, announcement]);
  return (
    <div className="dt-status" role="status" aria-live="polite" aria-atomic="true">
      {/* A new key per announcement makes a repeated message be read again. */}
      {/* A quiet one is shown again after a notice that went stale: hidden from screen readers, which read it already. */}
      {announcement && (
        <span key={announcement.id} aria-hidden={announcement.quiet ? 'true' : undefined}>
          {announcement.text}
        </span>
      )}
    </div>
  );
}
