/**
 * Reads settings.json key by key: a key whose value is wrong is reported and its default used, the
 * other keys still count. A file that is not a JSON object gives the defaults, and must not be written.
 */
import type { z } from 'zod';
import { DEFAULT_APP_SETTINGS, type AppSettings } from '../../../shared/app-settings';
import { appSettingsPatchSchema } from '../../../shared/app-settings-schema';
import { isRecord } from '../../../shared/is-record';
import { mainSettingsSchema, type Settings } from './settings';
import { readRegularFile } from '../disk/regular-file';
import { messageOf } from '../../../shared/error-message';

export interface SettingsRead {
  /** What the Settings view shows: the file's valid keys over the defaults. */
  settings: AppSettings;
  /** The keys main reads with settings.ts's helpers (workspaceFolders, watchFolders...). */
  main: Settings;
  /** What is wrong with the file, when something is: the whole file, or each key not used. */
  problem?: string;
  /** The file may be changed: it is missing, or holds a JSON object (perhaps with bad keys). */
  writable: boolean;
}

export function readSettingsFile(file: string): SettingsRead {
  let text: string;
  try {
    text = readRegularFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return defaults();
    return defaults(`${file} could not be read (${messageOf(error)})`);
  }
  let value: unknown;
  try {
    value = text.trim() === '' ? {} : JSON.parse(text);
  } catch (error) {
    return defaults(`${file} is not valid JSON (${messageOf(error)})`);
  }
  if (!isRecord(value)) return defaults(`${file} is not a JSON object`);
  return readKeys(value);
}

/** The settings of a file that is a JSON object: each key on its own. */
export function readKeys(value: Readonly<Record<string, unknown>>): SettingsRead {
  const problems: string[] = [];
  const settings = structuredClone(DEFAULT_APP_SETTINGS) as AppSettings;
  const unusable = new Set<string>();
  const appShape: Record<string, z.ZodType> = appSettingsPatchSchema.shape;
  for (const [key, schema] of Object.entries(appShape)) {
    if (value[key] === undefined) continue;
    const parsed = schema.safeParse(value[key]);
    if (parsed.success) Object.assign(settings, { [key]: parsed.data });
    else {
      unusable.add(key);
      problems.push(keyProblem(key, parsed.error));
    }
  }
  const usable: Record<string, unknown> = {};
  const mainShape: Record<string, z.ZodType> = mainSettingsSchema.shape;
  for (const [key, schema] of Object.entries(mainShape)) {
    // A key both read (autoApply, extraLockFolders) is used by main only when the window's schema took it.
    if (value[key] === undefined || unusable.has(key)) continue;
    const parsed = schema.safeParse(value[key]);
    if (parsed.success) usable[key] = parsed.data;
    else problems.push(keyProblem(key, parsed.error));
  }
  return {
    settings,
    main: mainSettingsSchema.parse(usable),
    ...(problems.length > 0 && { problem: problems.join('; ') }),
    writable: true,
  };
}

function defaults(problem?: string): SettingsRead {
  return {
    ...readKeys({}),
    ...(problem !== undefined && { problem }),
    writable: problem === undefined,
  };
}

/** `"theme" is not used (...): its default applies`, with where inside the value it went wrong. */
function keyProblem(key: string, error: z.ZodError): string {
  const issue = error.issues[0];
  const inside = (issue?.path ?? []).map(String).join('.');
  const why = `${inside && `${inside}: `}${issue?.message ?? 'invalid'}`;
  return `"${key}" is not used (${why}): its default applies`;
}
