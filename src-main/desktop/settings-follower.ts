/**
 * The desktop's copy of the person's settings, and "Start at login" kept as one thing with them: the
 * system's login item follows the launchAtLogin setting (desktop-settings.ts decides when), and the
 * tray's item changes the setting, not the system. The system and the settings are passed in, so this
 * runs without Electron.
 */
import { DEFAULT_APP_SETTINGS, type AppSettings, type AppSettingsPatch } from '../../shared/app-settings';
import { loginItemStep } from './desktop-settings';
import { messageOf } from '../../shared/error-message';

export interface SettingsFollowerOptions {
  /** The system's login item: read once at start, then written. */
  loginItem: { read(): boolean; write(on: boolean): void };
  /** Changes the settings as the window does (core's updateSettings); the change comes back through follow. */
  updateSettings(patch: AppSettingsPatch): Promise<unknown>;
  /** The login item changed: the tray's check box shows it. */
  loginItemChanged(): void;
  warn(message: string): void;
}

export class SettingsFollower {
  private current: AppSettings | undefined;
  private loginItemOn: boolean;

  constructor(private readonly options: SettingsFollowerOptions) {
    this.loginItemOn = options.loginItem.read();
  }

  /** The settings as last given, or the defaults until core has any. */
  get settings(): AppSettings {
    return this.current ?? DEFAULT_APP_SETTINGS;
  }

  /** Whether the system starts DiffTray at login, as far as DiffTray wrote or read it. */
  get openAtLogin(): boolean {
    return this.loginItemOn;
  }

  /** New settings from core's state stream (its snapshot at start, then each change that carries them). */
  follow(next: AppSettings | undefined): void {
    const step = loginItemStep(this.current, next, this.loginItemOn);
    this.current = next ?? this.current;
    if (step.kind === 'apply') this.writeLoginItem(step.openAtLogin);
    if (step.kind === 'adopt') {
      this.options
        .updateSettings({ launchAtLogin: step.launchAtLogin })
        .catch((error: unknown) => this.options.warn(`Start at login was not recorded: ${messageOf(error)}`));
    }
  }

  /** The tray's "Start at login": the setting is changed, and the login item follows. Rejects with why not. */
  async toggleOpenAtLogin(): Promise<void> {
    const wanted = !this.loginItemOn;
    // The setting says so already and only the system lags (an earlier write failed): no change would come.
    if (this.current?.launchAtLogin === wanted) return this.writeLoginItem(wanted);
    await this.options.updateSettings({ launchAtLogin: wanted });
  }

  private writeLoginItem(on: boolean): void {
    try {
      this.options.loginItem.write(on);
      this.loginItemOn = on;
    } catch (error) {
      this.options.warn(`Start at login could not be changed: ${messageOf(error)}`);
    }
    this.options.loginItemChanged();
  }
}
