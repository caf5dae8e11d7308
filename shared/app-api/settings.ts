/** The Settings view's calls: change settings.json, and set up Claude Code's hooks. */
import { z } from 'zod';
import { appSettingsPatchSchema, type AppSettings } from '../app-settings';
import { answers, type CallSpec } from './call-spec';

// Types only: the settings' schemas stay in app-settings.ts, beside the defaults.
export type {
  AppSettings,
  AppSettingsPatch,
  NotificationSettings,
  SettingsFileState,
  ThemeChoice,
} from '../app-settings';

/** What `difftray setup claude-code` would change in Claude Code's settings, shown before it is done. */
export interface ClaudeHooksPlan {
  /** The settings file, e.g. ~/.claude/settings.json. */
  settingsPath: string;
  /** Already set up exactly so: applying changes nothing. */
  upToDate: boolean;
  /** One line per change, for the person to read first. */
  changes: string[];
  /** The hook command that will be written (an absolute path that works from any folder). */
  command: string;
}

export const settingsCalls = {
  /** What setting up Claude Code's hooks would change; `apply` does it. */
  claudeHooksSetup: {
    params: z.object({ apply: z.boolean() }),
    result: answers<ClaudeHooksPlan>(),
  },
  /**
   * Changes the settings named in `patch` and applies them at once; answers the settings now. Refused
   * with the reason when a value is invalid (a key used twice...) or settings.json cannot be used.
   * The patch is the whole of the parameters.
   */
  updateSettings: {
    params: appSettingsPatchSchema,
    result: answers<AppSettings>(),
  },
} satisfies Record<string, CallSpec>;
