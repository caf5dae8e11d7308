import { describe, expect, it } from 'vitest';
import { loadPrefs } from '../../../src-renderer/state/prefs';
import {
  applyTheme,
  currentTheme,
  isThemePref,
  monacoThemeFor,
  onThemeChange,
  resolveTheme,
  type ResolvedTheme,
} from '../../../src-renderer/state/theme';

describe('theme resolution', () => {
  it('System follows the OS; Light and Dark override it', () => {
    expect(resolveTheme('system', false)).toBe('light');
    expect(resolveTheme('system', true)).toBe('dark');
    expect(resolveTheme('light', true)).toBe('light');
    expect(resolveTheme('dark', false)).toBe('dark');
  });

  it('Monaco gets its own theme names', () => {
    expect(monacoThemeFor('light')).toBe('difftray-light');
    expect(monacoThemeFor('dark')).toBe('difftray-dark');
  });

  it('only the three choices are accepted from storage', () => {
    expect(['system', 'light', 'dark'].every(isThemePref)).toBe(true);
    expect([undefined, null, 'Dark', 1, 'auto'].some(isThemePref)).toBe(false);
  });

  it('defaults to System when nothing (or nothing valid) is stored', () => {
    // No localStorage in Node: the defaults.
    expect(loadPrefs().theme).toBe('system');
  });

  it('listeners hear the current theme at once and every change after, once per change', () => {
    const heard: ResolvedTheme[] = [];
    const stop = onThemeChange((theme) => heard.push(theme));
    expect(heard).toEqual([currentTheme()]);
    applyTheme('dark');
    applyTheme('dark');
    applyTheme('light');
    stop();
    applyTheme('dark');
    expect(heard.slice(1)).toEqual(heard[0] === 'dark' ? ['light'] : ['dark', 'light']);
  });
});
