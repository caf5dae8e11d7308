/**
 * What the desktop shell does with the person's settings, without Electron: whether a new review is
 * notified and with a sound, and when "Start at login" is written to the system. The settings come
 * from core's state stream (snapshot, then changes), as the window gets them.
 */
import type { AppSettings, NotificationSettings } from '../../shared/app-api';

/**
 * How a review that arrives is notified, or null for not at all: only when notifications are on, and
 * only when the window is not already in front of the person (there they see it arrive).
 */
export function arrivalNotification(
  settings: NotificationSettings,
  windowInFront: boolean,
): { sound: boolean } | null {
  if (!settings.enabled || windowInFront) return null;
  return { sound: settings.sound };
}

export type LoginItemStep =
  /** Nothing to do: the system already does what the setting says, or no settings are known. */
  | { kind: 'none' }
  /** The setting changed: write it to the system's login items. */
  | { kind: 'apply'; openAtLogin: boolean }
  /** First settings seen and the system says otherwise: the setting takes the system's value. */
  | { kind: 'adopt'; launchAtLogin: boolean };

/**
 * Keeps "Start at login" one thing: the setting, and the system's login item (`openAtLogin`, read at
 * start and written since). A change of the setting is written to the system. At start the system
 * wins: its login items are what the person last chose there (turned off in the OS's own settings, or
 * on from the tray before the setting existed), so the setting is brought in line instead of undoing it.
 */
export function loginItemStep(
  previous: AppSettings | undefined,
  next: AppSettings | undefined,
  openAtLogin: boolean,
): LoginItemStep {
  if (!next || next.launchAtLogin === openAtLogin) return { kind: 'none' };
  if (!previous) return { kind: 'adopt', launchAtLogin: openAtLogin };
  if (next.launchAtLogin !== previous.launchAtLogin)
    return { kind: 'apply', openAtLogin: next.launchAtLogin };
  return { kind: 'none' };
}
