import '../switch.css';

/** An on/off setting as a switch (role=switch), drawn like the watch-mode switches. */
export function SettingSwitch({
  label,
  checked,
  onToggle,
  disabled = false,
  busy = false,
  describedBy,
}: {
  label: string;
  checked: boolean;
  onToggle(next: boolean): void;
  disabled?: boolean;
  /** A change is under way: a click meanwhile does nothing. */
  busy?: boolean;
  describedBy?: string;
}) {
  return (
    <button
      type="button"
      role="switch"
      className="dt-switch"
      aria-checked={checked}
      aria-describedby={describedBy}
      aria-busy={busy || undefined}
      disabled={disabled}
      onClick={() => {
        if (!busy) onToggle(!checked);
      }}
    >
      <span className="dt-switch-track" aria-hidden="true">
        <span className="dt-switch-thumb" />
      </span>
      {label}
    </button>
  );
}
