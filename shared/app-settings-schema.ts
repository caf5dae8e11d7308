/** The schema of a change to the settings (app-settings.ts), for main: the window only needs the types. */
import { z } from 'zod';
import { THEME_CHOICES, type AppSettingsPatch } from './app-settings';
import { labelField, pathField } from './field-limits';
import { keyMapChangesSchema } from './keymap-schema';
import { turnReviewSettingsSchema } from './turn-settings';

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
  .partial() satisfies z.ZodType<AppSettingsPatch>;
