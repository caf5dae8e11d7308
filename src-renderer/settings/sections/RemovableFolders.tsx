import { useHomePath } from '../../state/home-path';

/** A list of folders in Settings, each with its Remove button (workspace folders, extra lock folders). */
export function RemovableFolders({
  label,
  folders,
  busy,
  onRemove,
}: {
  label: string;
  folders: readonly string[];
  /** Whether the folder's Remove is under way (its button waits). */
  busy: (folder: string) => boolean;
  onRemove: (folder: string) => void;
}) {
  const shown = useHomePath();
  return (
    <ul className="dt-settings-list" aria-label={label}>
      {folders.map((folder) => (
        <li key={folder}>
          <code title={shown(folder)}>{shown(folder)}</code>
          <button
            type="button"
            aria-label={`Remove ${shown(folder)}`}
            disabled={busy(folder)}
            onClick={() => onRemove(folder)}
          >
            Remove
          </button>
        </li>
      ))}
    </ul>
  );
}
