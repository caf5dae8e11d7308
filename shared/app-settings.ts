/**
 * The settings a person changes in the app's Settings view. They live in settings.json (DIFFTRAY_HOME)
 * beside the keys main keeps for itself (watchFolders, trustedPrograms...); this is the part the window
 * sees and changes, validated here for both main and the window.
 */
import { z } from 'zod';
import { labelField, pathField } from './field-limits';
import { keyMapChangesSchema, type KeyMapChanges } from './keymap';
import { turnReviewSettingsSchema, type TurnReviewSettings } from './turn-settings';

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

/** At most this many entries in a list setting: far more than anyone has, and a bound on the file. */
export const MAX_SETTING_ENTRIES = 200;

/** A change the window asks for: the settings it names, each whole. */
export const appSettingsPatchSchema = z
  .object({
    autoApply: z.array(labelField().min(1)).max(MAX_SETTING_ENTRIES),
    notifications: z.object({ enabled: z.boolean(), sound: z.boolean() }).strict(),
    launchAtLogin: z.boolean(),
    theme: z.enum(THEME_CHOICES),
    keyMap: keyMapChangesSchema,
    extraLockFolders: z.array(pathField().min(1)).max(MAX_SETTING_ENTRIES),
    turnReview: turnReviewSettingsSchema,
  })
  .strict()
  .partial();

export type AppSettingsPatch = z.infer<typeof appSettingsPatchSchema>;

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
