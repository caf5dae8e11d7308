/**
 * Light and dark. The person picks System (follow the OS, live), Light or Dark; the choice is the
 * Theme setting (settings.json), of which the window keeps a copy among its view preferences (prefs.ts)
 * for the first frame and for a main that sends no settings (ThemeSwitch.tsx). The resolved theme is set on <html data-theme> for the CSS and handed to
 * listeners (monaco.ts: monaco.editor.setTheme is global, so one listener serves every editor).
 */
export type ThemePref = 'system' | 'light' | 'dark';
export type ResolvedTheme = 'light' | 'dark';

export const THEME_PREFS: readonly ThemePref[] = ['system', 'light', 'dark'];

export const themePrefLabels: Record<ThemePref, string> = {
  system: 'System',
  light: 'Light',
  dark: 'Dark',
};

export function isThemePref(value: unknown): value is ThemePref {
  return value === 'system' || value === 'light' || value === 'dark';
}

export function resolveTheme(pref: ThemePref, systemDark: boolean): ResolvedTheme {
  if (pref === 'system') return systemDark ? 'dark' : 'light';
  return pref;
}

/** Monaco's theme for each: 'vs' or 'vs-dark' with the diff's own colours (review/diff-colours.ts). */
export function monacoThemeFor(theme: ResolvedTheme): `difftray-${ResolvedTheme}` {
  return `difftray-${theme}`;
}

type Listener = (theme: ResolvedTheme) => void;
const listeners = new Set<Listener>();
let current: ResolvedTheme | undefined;

/** The theme last applied, or the OS's until the app applies one. */
export function currentTheme(): ResolvedTheme {
  return current ?? resolveTheme('system', systemPrefersDark());
}

/** Calls the listener now and on every change; returns the function that stops it. */
export function onThemeChange(listener: Listener): () => void {
  listeners.add(listener);
  listener(currentTheme());
  return () => listeners.delete(listener);
}

export function applyTheme(theme: ResolvedTheme, doc: Document | undefined = globalThis.document): void {
  if (doc) {
    doc.documentElement.dataset.theme = theme;
    // Native parts (scrollbars, form controls) follow too.
    doc.documentElement.style.colorScheme = theme;
  }
  if (theme === current) return;
  current = theme;
  for (const listener of listeners) listener(theme);
}

const DARK_QUERY = '(prefers-color-scheme: dark)';

export function systemPrefersDark(): boolean {
  return typeof matchMedia === 'function' && matchMedia(DARK_QUERY).matches;
}

/** Calls back when the OS switches between light and dark; returns the function that stops it. */
export function onSystemThemeChange(callback: (dark: boolean) => void): () => void {
  if (typeof matchMedia !== 'function') return () => {};
  const query = matchMedia(DARK_QUERY);
  const onChange = (event: MediaQueryListEvent): void => callback(event.matches);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}
