import { useAppStore } from '../state/store';

/** One polite status line: visible, and read out by screen readers ("Hunk 2 accepted"). */
export function LiveRegion() {
  const announcement = useAppStore((s) => s.announcement);
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
