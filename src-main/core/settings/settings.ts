/** Settings on disk and the workspace folders derived from them and the command line. */
import path from 'node:path';
import { z } from 'zod';
import { clientPauseKey, type PausedClient, type TrustedProgram } from '../../../shared/app-api';
import { isClientProtocol } from '../../../shared/protocols';
import { labelField, pathField } from '../../../shared/field-limits';
import { MAX_LABEL_CHARS, MAX_PROGRAM_ARGS, MAX_PROGRAM_IDENTITY_CHARS } from '../limits';
import { checkWatchFolder, outermostFolders, type WatchFolderProblem } from '../watch/watch-folders';
import { broadFolderProblem, implicitStartFolder, type FolderContext } from '../workspace/workspace-choice';
import { resolveRealPath } from '../workspace/workspace-paths';

export const mainSettingsSchema = z.object({
  workspaceFolders: z.array(z.string()).default([]),
  /**
   * Clients, by the name shown under Connections (e.g. "Clio"), whose proposals are accepted whole as
   * they arrive (core/review/auto-apply.ts). Absent means none; the store reads it (AppSettings.autoApply).
   */
  autoApply: z.array(z.string()).optional(),
  /**
   * More folders that get the Claude Code lock file, for Claude Code forks that look elsewhere. Each
   * entry is checked on its own (`extraLockFolders`), so one bad entry does not void the file.
   */
  extraLockFolders: z.array(z.unknown()).optional(),
  /**
   * Folders whose changes on disk are reviewed after the fact (watch mode), each inside a workspace
   * folder. Checked one by one (`watchFolders`), so one bad entry does not void the file.
   */
  watchFolders: z.array(z.unknown()).optional(),
  /**
   * Programs allowed to connect without a token ("Always allow this program" in a connection prompt):
   * `{executable, script?, name}`, or `{name}` alone where the platform could not identify the process.
   * Checked one by one (`trustedPrograms`).
   */
  trustedPrograms: z.array(z.unknown()).optional(),
  /**
   * Clients whose reviews the person paused (Connections), `{key, name, protocol}`, so a pause outlives a
   * restart. Checked one by one (`pausedClients`).
   */
  pausedClients: z.array(z.unknown()).optional(),
});

export type Settings = z.infer<typeof mainSettingsSchema>;

/**
 * The `extraLockFolders` entries as absolute, normalized paths (`~` and `~/...` expanded against
 * `home`), without duplicates. An entry that is not a string or not an absolute path is reported
 * through `warn` and skipped.
 */
export function extraLockFolders(
  settings: Settings,
  home: string,
  warn: (message: string) => void = console.warn,
): string[] {
  const folders: string[] = [];
  for (const { folder, shown } of pathEntries(settings.extraLockFolders, home)) {
    if (folder === undefined || !path.isAbsolute(folder)) {
      warn(`Ignoring extraLockFolders entry ${shown}: it must be an absolute path or start with ~/`);
      continue;
    }
    folders.push(path.resolve(folder));
  }
  return [...new Set(folders)];
}

/**
 * The `watchFolders` entries as real paths, each inside one of `workspaceFolders` (real paths): absolute,
 * `~/...`, or relative to the first workspace folder ("." is that folder). An entry that is not a path,
 * is outside the workspace, or is not an existing folder is reported through `warn` and skipped; one
 * inside another watched folder is dropped (its changes are already seen).
 */
export function watchFolders(
  settings: Settings,
  workspaceFolders: readonly string[],
  home: string,
  warn: (message: string) => void = console.warn,
): string[] {
  const folders: string[] = [];
  const first = workspaceFolders[0];
  for (const { folder, shown } of pathEntries(settings.watchFolders, home)) {
    if (folder === undefined || first === undefined) {
      warn(`Ignoring watchFolders entry ${shown}: it must be a path`);
      continue;
    }
    const checked = checkWatchFolder(folder, workspaceFolders, first);
    if ('problem' in checked) {
      warn(`Ignoring watchFolders entry ${shown}: it ${WHY_NOT_WATCHED[checked.problem]}`);
      continue;
    }
    folders.push(checked.folder);
  }
  return outermostFolders(folders);
}

/**
 * The `watchFolders` to write when the person turned watch mode on or off: `watched` (the folders watched
 * now, real paths), and the entries that name folders outside this run's workspace, kept as they were
 * for the runs that have them.
 */
export function watchFoldersToRemember(
  settings: Settings,
  workspaceFolders: readonly string[],
  home: string,
  watched: readonly string[],
): unknown[] {
  const elsewhere = pathEntries(settings.watchFolders, home).filter(({ folder }) => {
    if (folder === undefined || !path.isAbsolute(folder)) return false;
    const checked = checkWatchFolder(folder, workspaceFolders, folder);
    return 'problem' in checked && checked.problem === 'outside';
  });
  return [...elsewhere.map(({ entry }) => entry), ...watched];
}

const WHY_NOT_WATCHED: Record<WatchFolderProblem, string> = {
  outside: 'is outside the workspace folders',
  'not-folder': 'is not a folder',
};

/**
 * A list setting's entries with their paths (`~` expanded; undefined for an entry that is not a path) and
 * how to show each in a warning.
 */
function pathEntries(
  entries: readonly unknown[] | undefined,
  home: string,
): Array<{ entry: unknown; folder: string | undefined; shown: string }> {
  return (entries ?? []).map((entry) => {
    const parsed = pathField().min(1).safeParse(entry);
    return {
      entry,
      folder: parsed.success ? expandHome(parsed.data, home) : undefined,
      shown: String(JSON.stringify(entry)).slice(0, 200),
    };
  });
}

/** Whether an extraLockFolders entry is one `extraLockFolders` uses: absolute, `~` or `~/...`. */
export function isLockFolderEntry(entry: string): boolean {
  // Whatever the home folder, `~` and `~/...` expand to absolute paths and nothing else does.
  return path.isAbsolute(expandHome(entry, path.sep));
}

/** `~` alone or followed by a separator is the home folder; `~user` is not expanded (left relative). */
export function expandHome(folder: string, home: string): string {
  if (folder === '~') return home;
  if (folder.startsWith('~/') || folder.startsWith(`~${path.sep}`)) return path.join(home, folder.slice(2));
  return folder;
}

const trustedProgramEntry = z
  .object({
    name: labelField().min(1),
    executable: pathField().min(1).refine(path.isAbsolute, 'must be an absolute path').optional(),
    script: pathField().min(1).optional(),
    argv: z.array(z.string().max(MAX_PROGRAM_IDENTITY_CHARS)).min(1).max(MAX_PROGRAM_ARGS).optional(),
    environment: z
      .record(z.string().max(MAX_LABEL_CHARS), z.string().max(MAX_PROGRAM_IDENTITY_CHARS))
      .optional(),
  })
  .refine((entry) => entry.script === undefined || entry.executable !== undefined, {
    message: 'a script needs its executable',
  })
  .refine((entry) => (entry.argv === undefined) === (entry.environment === undefined), {
    message: 'a command line needs its environment, and the other way round',
  })
  .refine((entry) => entry.argv === undefined || entry.executable !== undefined, {
    message: 'a command line needs its executable',
  });

/** The `trustedPrograms` entries; one that is not a valid entry is reported through `warn` and skipped. */
export function trustedPrograms(
  settings: Settings,
  warn: (message: string) => void = console.warn,
): Array<Omit<TrustedProgram, 'key'>> {
  const programs: Array<Omit<TrustedProgram, 'key'>> = [];
  for (const entry of settings.trustedPrograms ?? []) {
    const parsed = trustedProgramEntry.safeParse(entry);
    if (!parsed.success) {
      const shown = String(JSON.stringify(entry)).slice(0, 200);
      warn(`Ignoring trustedPrograms entry ${shown}: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
      continue;
    }
    const { name, executable, script, argv, environment } = parsed.data;
    programs.push({
      name,
      ...(executable !== undefined && { executable }),
      ...(script !== undefined && { script }),
      ...(argv !== undefined && { argv }),
      ...(environment !== undefined && { environment }),
    });
  }
  return programs;
}

const pausedClientEntry = z.object({
  name: labelField().min(1),
  // Every protocol has a descriptor, so a remembered pause names one that exists.
  protocol: z.string().refine(isClientProtocol, 'is not a known protocol'),
});

/**
 * The `pausedClients` entries (their keys worked out again, not trusted from the file); one that is not
 * a valid entry is reported through `warn` and skipped.
 */
export function pausedClients(
  settings: Settings,
  warn: (message: string) => void = console.warn,
): PausedClient[] {
  const clients = new Map<string, PausedClient>();
  for (const entry of settings.pausedClients ?? []) {
    const parsed = pausedClientEntry.safeParse(entry);
    if (!parsed.success) {
      const shown = String(JSON.stringify(entry)).slice(0, 200);
      warn(`Ignoring pausedClients entry ${shown}: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
      continue;
    }
    const client = { name: parsed.data.name, protocol: parsed.data.protocol };
    clients.set(clientPauseKey(client), { key: clientPauseKey(client), ...client });
  }
  return [...clients.values()];
}

export { difftrayHome } from './difftray-home';

/**
 * Folders from `--workspace` plus those in settings, as real paths, deduplicated. Without `--workspace`,
 * the current directory joins them only when `npm start` was run in a project (workspace-choice.ts);
 * the result may be empty, and then the app asks for a folder.
 */
export function resolveWorkspaceFolders(
  cliFolders: readonly string[],
  settings: Settings,
  cwd: string,
  context: FolderContext,
  log: (message: string) => void = () => {},
): string[] {
  let given = cliFolders;
  if (given.length === 0) {
    const start = implicitStartFolder(resolveRealPath(cwd), context);
    if ('folder' in start) given = [start.folder];
    else if (start.problem !== undefined) {
      log(`Not taking ${start.skipped} as a workspace folder: ${start.problem}. Add one in Settings.`);
    }
  }
  // Real paths, so that checks against symlink-resolved file paths compare like with like.
  const real = (folder: string) => resolveRealPath(path.resolve(cwd, expandHome(folder, context.home)));
  // settings.json's folders get the check Settings' Add makes (the root and system folders never), as
  // the file may have been written by hand; `--workspace` is the person's word for this run.
  const remembered = settings.workspaceFolders.map(real).filter((folder) => {
    const problem = broadFolderProblem(folder, context, { homeAllowed: true });
    if (problem !== undefined) log(`settings.json: ${folder} is not taken as a workspace folder: ${problem}`);
    return problem === undefined;
  });
  return [...new Set([...given.map(real), ...remembered])];
}
