import type { SettingsFileState } from '../../../shared/app-api';
import { settingsFileNotice } from '../settings-model';
import { useSettingsView } from '../settings-view';

/** At the top of Settings: the settings file could not be used, where it is, and what DiffTray does. */
export function SettingsFileBanner({ file }: { file: SettingsFileState | undefined }) {
  const notice = settingsFileNotice(file);
  if (notice === undefined) return null;
  return (
    <div className="dt-settings-banner" data-testid="settings-file-problem">
      <strong>The settings file has a problem.</strong> {notice}
    </div>
  );
}

/** In the sidebar: the same problem in a line, so it is seen without opening Settings. */
export function SidebarSettingsNotice({ file }: { file: SettingsFileState | undefined }) {
  const show = useSettingsView((s) => s.show);
  if (!file?.problem) return null;
  return (
    <p className="dt-settings-notice" data-testid="settings-file-notice">
      The settings file <code>{file.path}</code> has a problem; DiffTray uses the defaults in its place.{' '}
      <button type="button" className="dt-link-button" onClick={show}>
        Open Settings
      </button>
    </p>
  );
}
