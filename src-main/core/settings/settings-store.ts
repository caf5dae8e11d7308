/**
 * The one owner of settings.json in main: what it says now (read key by key, settings-read.ts), every
 * change to it (the window's `updateSettings`, main's own keys), and hand edits picked up while running.
 * A file that is not a JSON object is never written: DiffTray runs on the defaults and refuses changes,
 * so nothing the person wrote in it is lost.
 */
import { mkdirSync, watch, type FSWatcher } from 'node:fs';
import path from 'node:path';
import type { AppSettings, AppSettingsPatch, SettingsFileState } from '../../../shared/app-settings';
import { appSettingsPatchSchema } from '../../../shared/app-settings-schema';
import { sameValue } from '../../../shared/state-sync';
import { isLockFolderEntry, type Settings } from './settings';
import { updateSettingsFile } from './settings-file';
import { readSettingsFile, type SettingsRead } from './settings-read';
import { messageOf } from '../../../shared/error-message';

/** A change refused: the file cannot be used, or the change is not valid. The message says which. */
export class SettingsStoreError extends Error {}

export interface SettingsStoreOptions {
  log?: (message: string) => void;
  /** Follow hand edits of the file while running (on by default; off where nothing runs for long). */
  watch?: boolean;
  /** How long the file must be quiet after a change on disk before it is read again. */
  quietMs?: number;
}

const DEFAULT_QUIET_MS = 100;

export class SettingsStore {
  private state: SettingsRead;
  private readonly listeners = new Set<() => void>();
  private readonly log: (message: string) => void;
  private watcher: FSWatcher | undefined;
  private reloadTimer: NodeJS.Timeout | undefined;

  constructor(
    readonly file: string,
    { log = () => {}, watch: follow = true, quietMs = DEFAULT_QUIET_MS }: SettingsStoreOptions = {},
  ) {
    this.log = log;
    this.state = readSettingsFile(file);
    if (this.state.problem) log(`Settings: ${this.state.problem}`);
    if (follow) this.follow(quietMs);
  }

  /** What the Settings view shows: the file's valid keys over the defaults. */
  get settings(): AppSettings {
    return structuredClone(this.state.settings);
  }

  /** The keys main reads with settings.ts's helpers (workspaceFolders, watchFolders, pausedClients...). */
  get main(): Settings {
    return structuredClone(this.state.main);
  }

  fileState(): SettingsFileState {
    return { path: this.file, ...(this.state.problem !== undefined && { problem: this.state.problem }) };
  }

  /** Changes the settings the window named, each whole, and applies them at once; answers the settings. */
  update(patch: AppSettingsPatch): AppSettings {
    const parsed = appSettingsPatchSchema.safeParse(patch);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue?.path.map(String).join('.');
      throw new SettingsStoreError(
        `Settings not changed: ${where ? `${where}: ` : ''}${issue?.message ?? 'invalid'}`,
      );
    }
    const folder = parsed.data.extraLockFolders?.find((entry) => !isLockFolderEntry(entry));
    if (folder !== undefined) {
      throw new SettingsStoreError(
        `Settings not changed: extraLockFolders: ${JSON.stringify(folder)} must be an absolute path or start with ~/`,
      );
    }
    this.write(parsed.data);
    return this.settings;
  }

  /**
   * Writes main's own keys (watchFolders, trustedPrograms, workspaceFolders...) as given; every other key
   * is kept as written. Refused, with the reason, while the file cannot be used.
   */
  write(keys: Readonly<Record<string, unknown>>): void {
    // The file as it is now: a hand edit may have fixed it, or broken it, since it was last read.
    this.reload();
    if (!this.state.writable) {
      throw new SettingsStoreError(
        `Settings not changed: ${this.state.problem}. The file is left as it is, so nothing written in ` +
          'it is lost: fix it, or remove it to start again from the defaults',
      );
    }
    if (Object.keys(keys).length === 0) return;
    try {
      updateSettingsFile(this.file, keys);
    } catch (error) {
      throw new SettingsStoreError(`Settings not changed: ${messageOf(error)}`);
    } finally {
      this.reload();
    }
  }

  /** Reads the file again; listeners hear of it when anything it gives changed. */
  reload(): void {
    const before = this.state;
    this.state = readSettingsFile(this.file);
    if (sameValue(before, this.state)) return;
    if (this.state.problem !== before.problem) {
      this.log(`Settings: ${this.state.problem ?? `${this.file} is read without problems again`}`);
    }
    for (const listener of this.listeners) {
      try {
        listener();
      } catch (error) {
        this.log(`Settings: applying a change failed: ${messageOf(error)}`);
      }
    }
  }

  /** Called after each change of what the file gives (a change made here, or by hand); returns the way to stop. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  close(): void {
    clearTimeout(this.reloadTimer);
    this.watcher?.close();
    this.watcher = undefined;
    this.listeners.clear();
  }

  /**
   * Watches the folder, not the file: an editor (and updateSettingsFile) saves by renaming a new file
   * over the old one, which a watch on the old file would not see.
   */
  private follow(quietMs: number): void {
    const folder = path.dirname(this.file);
    const name = path.basename(this.file);
    try {
      mkdirSync(folder, { recursive: true, mode: 0o700 });
      this.watcher = watch(folder, (_event, changed) => {
        if (changed !== null && changed !== name) return;
        clearTimeout(this.reloadTimer);
        this.reloadTimer = setTimeout(() => this.reload(), quietMs).unref();
      });
      // Following the file never keeps a process alive on its own.
      this.watcher.unref();
      this.watcher.on('error', (error) => {
        this.log(`Settings: hand edits of ${this.file} apply at the next start (${error.message})`);
        this.watcher?.close();
        this.watcher = undefined;
      });
    } catch (error) {
      this.log(`Settings: hand edits of ${this.file} apply at the next start (${messageOf(error)})`);
    }
  }
}
