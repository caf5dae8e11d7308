/**
 * The settings a person changes in the app's Settings view. They live in settings.json (DIFFTRAY_HOME)
 * beside the keys main keeps for itself (watchFolders, trustedPrograms...); this is the part the window
 * sees and changes, checked by main against app-settings-schema.ts.
 */
import type { KeyMapChanges } from './keymap';
import type { TurnReviewSettings } from './turn-settings';

export const THEME_CHOICES = ['system', 'light', 'dark'] as const;
export type ThemeChoice = (typeof THEME_CHOICES)[number];

export interface NotificationSettings {
  /** A desktop notification when a review arrives while the window is hidden or in the background. */
  enabled: boolean;
  /** With a sound (the OS's notification sound). */
  sound: boolean;
}

export interface AppSettings {
  /** Client names, as shown under Connections (e.g. "Clio"), whose proposals are accepted whole at once. */
  autoApply: string[];
  notifications: NotificationSettings;
  /** Start DiffTray, in the tray, when the person logs in (desktop app only). */
  launchAtLogin: boolean;
  theme: ThemeChoice;
  /** The commands whose keys the person changed, with their chords (keymap.ts); others keep the defaults. */
  keyMap: KeyMapChanges;
  /** More folders that get the Claude Code lock file, for forks that look elsewhere (absolute or ~/...). */
  extraLockFolders: string[];
  /** Per agent reviewed through its hooks, what the person changed of the turn review's settings. */
  turnReview: TurnReviewSettings;
}

export const DEFAULT_APP_SETTINGS: Readonly<AppSettings> = {
  autoApply: [],
  notifications: { enabled: true, sound: false },
  launchAtLogin: false,
  theme: 'system',
  keyMap: {},
  extraLockFolders: [],
  turnReview: {},
};

/** A change the window asks for: the settings it names, each whole (checked by app-settings-schema.ts). */
export type AppSettingsPatch = Partial<AppSettings>;

/** Where the settings are kept, and what is wrong with the file if it cannot be read as settings. */
export interface SettingsFileState {
  path: string;
  /**
   * Why the file was not used (not JSON, a value of the wrong kind...). DiffTray then runs on the
   * defaults and does not write the file, so nothing the person wrote is lost; changes are refused
   * until it is fixed.
   */
  problem?: string;
}
