import { useLayoutEffect, useState } from 'react';
import {
  applyTheme,
  isThemePref,
  onSystemThemeChange,
  resolveTheme,
  systemPrefersDark,
  THEME_PREFS,
  themePrefLabels,
} from '../theme';
import { useAppStore } from '../store';

/** Keeps <html data-theme> and Monaco in step with the Theme choice and, for System, with the OS. */
export function useThemeSync(): void {
  const pref = useAppStore((s) => s.prefs.theme);
  const [systemDark, setSystemDark] = useState(systemPrefersDark);
  useLayoutEffect(() => onSystemThemeChange(setSystemDark), []);
  // Before paint, so the first frame already has the right colours.
  useLayoutEffect(() => applyTheme(resolveTheme(pref, systemDark)), [pref, systemDark]);
}

/** System / Light / Dark, remembered across reloads. */
export function ThemeSwitch() {
  const pref = useAppStore((s) => s.prefs.theme);
  const setPrefs = useAppStore((s) => s.setPrefs);
  return (
    <label className="dt-theme">
      Theme
      <select
        value={pref}
        onChange={(event) => {
          if (isThemePref(event.target.value)) setPrefs({ theme: event.target.value });
        }}
      >
        {THEME_PREFS.map((value) => (
          <option key={value} value={value}>
            {themePrefLabels[value]}
          </option>
        ))}
      </select>
    </label>
  );
}
