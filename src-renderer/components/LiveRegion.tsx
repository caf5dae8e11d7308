import { useAppStore } from '../store';

/** One polite status line: visible, and read out by screen readers ("Hunk 2 accepted"). */
export function LiveRegion() {
  const announcement = useAppStore((s) => s.announcement);
  return (
    <div className="dt-status" role="status" aria-live="polite" aria-atomic="true">
      {/* A new key per announcement makes a repeated message be read again. */}
      {announcement && <span key={announcement.id}>{announcement.text}</span>}
    </div>
  );
}
