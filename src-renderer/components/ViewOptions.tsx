import { useAppStore } from '../store';

/** How the diff is drawn; remembered across sessions. */
export function ViewOptions() {
  const prefs = useAppStore((s) => s.prefs);
  const setPrefs = useAppStore((s) => s.setPrefs);
  return (
    <div className="dt-toolbar-group dt-view-options" role="group" aria-label="View">
      <label>
        <input
          type="checkbox"
          checked={prefs.sideBySide}
          onChange={(e) => setPrefs({ sideBySide: e.target.checked })}
        />{' '}
        Side by side
      </label>
      <label>
        <input
          type="checkbox"
          checked={prefs.hideUnchanged}
          onChange={(e) => setPrefs({ hideUnchanged: e.target.checked })}
        />{' '}
        Hide unchanged lines
      </label>
    </div>
  );
}
