import { useEffect, useLayoutEffect, useState } from 'react';
import { useApi } from '../state/api-context';
import { errorMessage } from '../review/review-model';
import { themeChoice } from '../settings/settings-model';
import { useAppStore } from '../state/store';
import {
  applyTheme,
  onSystemThemeChange,
  resolveTheme,
  systemPrefersDark,
  type ThemePref,
} from '../state/theme';

/**
 * Keeps <html data-theme> and Monaco in step with the Theme choice and, for System, with the OS. The
 * choice is the settings' (settings.json) once main sends them; the window also remembers it, so the
 * first frame of the next load has the right colours before main answers.
 */
export function useThemeSync(): void {
  const settingsTheme = useAppStore((s) => s.snapshot?.settings?.theme);
  const pref = useAppStore((s) => s.prefs.theme);
  const choice = settingsTheme ?? pref;
  const [systemDark, setSystemDark] = useState(systemPrefersDark);
  useLayoutEffect(() => onSystemThemeChange(setSystemDark), []);
  // Before paint, so the first frame already has the right colours.
  useLayoutEffect(() => applyTheme(resolveTheme(choice, systemDark)), [choice, systemDark]);
  useEffect(() => {
    const { prefs, setPrefs } = useAppStore.getState();
    if (settingsTheme && settingsTheme !== prefs.theme) setPrefs({ theme: settingsTheme });
  }, [settingsTheme]);
}

export interface ThemeChoiceControl {
  choice: ThemePref;
  /** Answers main's refusal, or undefined when the choice was taken. */
  choose(value: ThemePref): Promise<string | undefined>;
  refusal: string | undefined;
}

/**
 * The theme chosen and a way to change it (Settings → Theme, the one control for it): in the settings,
 * or in this window while main sends none.
 */
export function useThemeChoice(): ThemeChoiceControl {
  const api = useApi();
  const settings = useAppStore((s) => s.snapshot?.settings);
  const pref = useAppStore((s) => s.prefs.theme);
  const [refusal, setRefusal] = useState<string>();
  // The choice asked for shows at once, until main's settings change (to it, or by another hand) or
  // main refuses it.
  const [asked, setAsked] = useState<{ value: ThemePref; from: ThemePref }>();
  const confirmed = themeChoice(settings, pref);
  const choose = async (value: ThemePref): Promise<string | undefined> => {
    useAppStore.getState().setPrefs({ theme: value });
    if (!settings) return undefined;
    setAsked({ value, from: confirmed });
    try {
      await api.call('updateSettings', { theme: value });
      setRefusal(undefined);
      return undefined;
    } catch (error) {
      const message = errorMessage(error, []);
      setAsked(undefined);
      setRefusal(message);
      return message;
    }
  };
  const choice = asked !== undefined && asked.from === confirmed ? asked.value : confirmed;
  return { choice, choose, refusal };
}
