import type { AppSettings } from '../../../shared/app-api';
import { useIsDesktop } from '../../carriers/carrier-kind';
import { THEME_PREFS, themePrefLabels } from '../../state/theme';
import { useThemeChoice } from '../../views/ThemeSwitch';
import { Refusal } from './Refusal';
import { SettingSwitch } from './SettingSwitch';
import { useSettingsChange } from './use-settings-change';

/** Settings → Notifications: a desktop notification when a review arrives unseen, with or without sound. */
export function NotificationsSection({ settings }: { settings: AppSettings }) {
  const change = useSettingsChange();
  const { enabled, sound } = settings.notifications;
  return (
    <section className="dt-settings-section" aria-labelledby="dt-settings-notifications">
      <h2 id="dt-settings-notifications">Notifications</h2>
      <p className="dt-settings-hint" id="dt-settings-notifications-hint">
        A notification when a review arrives while DiffTray’s window is hidden or in the background.
      </p>
      <div className="dt-settings-switches">
        <SettingSwitch
          label="Notify of new reviews"
          checked={enabled}
          busy={change.busy}
          describedBy="dt-settings-notifications-hint"
          onToggle={(on) =>
            void change.apply(
              { notifications: { enabled: on, sound } },
              on ? 'Notifications on' : 'Notifications off',
            )
          }
        />
        <SettingSwitch
          label="With sound"
          checked={sound}
          busy={change.busy}
          disabled={!enabled}
          onToggle={(on) =>
            void change.apply(
              { notifications: { enabled, sound: on } },
              on ? 'Notification sound on' : 'Notification sound off',
            )
          }
        />
      </div>
      <Refusal message={change.refusal} />
    </section>
  );
}

/** Settings → Launch at login: start DiffTray in the tray at login; only the desktop app can. */
export function LaunchAtLoginSection({ settings }: { settings: AppSettings }) {
  const change = useSettingsChange();
  const desktop = useIsDesktop();
  return (
    <section className="dt-settings-section" aria-labelledby="dt-settings-login">
      <h2 id="dt-settings-login">Launch at login</h2>
      <div className="dt-settings-switches">
        <SettingSwitch
          label="Start DiffTray in the tray when I log in"
          checked={settings.launchAtLogin}
          busy={change.busy}
          disabled={!desktop}
          describedBy={desktop ? undefined : 'dt-settings-login-hint'}
          onToggle={(on) =>
            void change.apply(
              { launchAtLogin: on },
              on ? 'DiffTray starts at login' : 'DiffTray no longer starts at login',
            )
          }
        />
      </div>
      {!desktop && (
        <p className="dt-settings-hint" id="dt-settings-login-hint">
          Desktop app only.
        </p>
      )}
      <Refusal message={change.refusal} />
    </section>
  );
}

/** Settings → Theme: System, Light or Dark; the one place the theme is chosen. */
export function ThemeSection() {
  const { choice, choose, refusal } = useThemeChoice();
  return (
    <section className="dt-settings-section" aria-labelledby="dt-settings-theme">
      <h2 id="dt-settings-theme">Theme</h2>
      <div className="dt-settings-choices" role="radiogroup" aria-labelledby="dt-settings-theme">
        {THEME_PREFS.map((value) => (
          <label key={value}>
            <input
              type="radio"
              name="dt-settings-theme"
              value={value}
              checked={choice === value}
              onChange={() => void choose(value)}
            />{' '}
            {themePrefLabels[value]}
          </label>
        ))}
      </div>
      <Refusal message={refusal} />
    </section>
  );
}
