/** What the desktop does with the person's settings: notifications, their sound, and Start at login. */
import { describe, expect, it } from 'vitest';
import { DEFAULT_APP_SETTINGS, type AppSettings } from '../../../shared/app-settings';
import { arrivalNotification, loginItemStep } from '../../../src-main/desktop/desktop-settings';

const settings = (changes: Partial<AppSettings> = {}): AppSettings => ({
  ...DEFAULT_APP_SETTINGS,
  ...changes,
});

describe('arrivalNotification', () => {
  it('notifies a new review silently by default, while the window is hidden or behind', () => {
    expect(arrivalNotification(DEFAULT_APP_SETTINGS.notifications, false)).toEqual({ sound: false });
  });

  it('plays the sound when the person asked for it', () => {
    expect(arrivalNotification({ enabled: true, sound: true }, false)).toEqual({ sound: true });
  });

  it('does not notify when notifications are off, sound or not', () => {
    expect(arrivalNotification({ enabled: false, sound: true }, false)).toBeNull();
    expect(arrivalNotification({ enabled: false, sound: false }, false)).toBeNull();
  });

  it('does not notify what the person sees arrive in the window in front of them', () => {
    expect(arrivalNotification({ enabled: true, sound: true }, true)).toBeNull();
  });
});

describe('loginItemStep', () => {
  const on = settings({ launchAtLogin: true });
  const off = settings({ launchAtLogin: false });

  it('does nothing without settings, or when the system already does what they say', () => {
    expect(loginItemStep(undefined, undefined, true)).toEqual({ kind: 'none' });
    expect(loginItemStep(undefined, on, true)).toEqual({ kind: 'none' });
    expect(loginItemStep(off, on, true)).toEqual({ kind: 'none' });
  });

  it('writes a changed setting to the system, either way', () => {
    expect(loginItemStep(off, on, false)).toEqual({ kind: 'apply', openAtLogin: true });
    expect(loginItemStep(on, off, true)).toEqual({ kind: 'apply', openAtLogin: false });
  });

  it('at start, brings the setting in line with the login item the person left in the system', () => {
    expect(loginItemStep(undefined, off, true)).toEqual({ kind: 'adopt', launchAtLogin: true });
    expect(loginItemStep(undefined, on, false)).toEqual({ kind: 'adopt', launchAtLogin: false });
  });

  it('leaves the system alone when other settings change', () => {
    const offWithTheme = settings({ launchAtLogin: false, theme: 'dark' });
    expect(loginItemStep(off, offWithTheme, true)).toEqual({ kind: 'none' });
  });
});
