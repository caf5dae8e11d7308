import { SETTINGS_BUTTON_ID, useSettingsView } from './settings-view';

/** The sidebar's way into Settings; pressed while Settings is on screen (pressing it again closes it). */
export function SettingsButton() {
  const open = useSettingsView((s) => s.open);
  const show = useSettingsView((s) => s.show);
  const hide = useSettingsView((s) => s.hide);
  return (
    <button
      type="button"
      id={SETTINGS_BUTTON_ID}
      className="dt-settings-button"
      aria-pressed={open}
      onClick={open ? hide : show}
    >
      <span aria-hidden="true">⚙</span> Settings
    </button>
  );
}
