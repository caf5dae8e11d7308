/** View preferences survive reloads; they are the renderer's own business, not main's. */
import { isThemePref, type ThemePref } from './theme';

export interface ViewPrefs {
  sideBySide: boolean;
  /** Fold long runs of unchanged lines (Monaco's hideUnchangedRegions). */
  hideUnchanged: boolean;
  /** Do not mark changes in leading/trailing whitespace (Monaco's ignoreTrimWhitespace). */
  ignoreWhitespace: boolean;
  /** Light or dark: 'system' follows the OS, live. A copy of the Theme setting once main sends settings. */
  theme: ThemePref;
}

const STORAGE_KEY = 'difftray.viewPrefs';
const DEFAULTS: ViewPrefs = {
  sideBySide: true,
  hideUnchanged: false,
  ignoreWhitespace: false,
  theme: 'system',
};

export function loadPrefs(): ViewPrefs {
  try {
    const raw = globalThis.localStorage?.getItem(STORAGE_KEY);
    if (!raw) return { ...DEFAULTS };
    const parsed = JSON.parse(raw) as Partial<ViewPrefs>;
    return {
      sideBySide: typeof parsed.sideBySide === 'boolean' ? parsed.sideBySide : DEFAULTS.sideBySide,
      hideUnchanged:
        typeof parsed.hideUnchanged === 'boolean' ? parsed.hideUnchanged : DEFAULTS.hideUnchanged,
      ignoreWhitespace:
        typeof parsed.ignoreWhitespace === 'boolean' ? parsed.ignoreWhitespace : DEFAULTS.ignoreWhitespace,
      theme: isThemePref(parsed.theme) ? parsed.theme : DEFAULTS.theme,
    };
  } catch {
    return { ...DEFAULTS }; // Storage can be unavailable (privacy modes, opaque origins).
  }
}

export function savePrefs(prefs: ViewPrefs): void {
  try {
    globalThis.localStorage?.setItem(STORAGE_KEY, JSON.stringify(prefs));
  } catch {
    // Not worth bothering the person about.
  }
}
