import { useAppStore } from '../state/store';
import './ViewOptions.css';

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
      <label title="Do not mark changes in leading or trailing whitespace (hunks still include them)">
        <input
          type="checkbox"
          checked={prefs.ignoreWhitespace}
          onChange={(e) => setPrefs({ ignoreWhitespace: e.target.checked })}
        />{' '}
        Ignore whitespace
      </label>
    </div>
  );
}
