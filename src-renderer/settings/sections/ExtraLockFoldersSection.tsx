import { useRef } from 'react';
import { withFolderAdded, withFolderRemoved } from '../settings-model';
import { AddFolderForm } from './AddFolderForm';
import { Refusal } from './Refusal';
import { useSettingsChange } from './use-settings-change';
import { RemovableFolders } from './RemovableFolders';

/**
 * Settings → Extra lock folders: more folders that get Claude Code's lock file, for forks of Claude Code
 * that look for it elsewhere.
 */
export function ExtraLockFoldersSection({ folders }: { folders: readonly string[] }) {
  const change = useSettingsChange();
  // Adding has its own: its refusal is shown beside the field, not above the list.
  const adding = useSettingsChange();
  const field = useRef<HTMLInputElement>(null);
  const remove = async (folder: string): Promise<void> => {
    const refused = await change.apply(
      { extraLockFolders: withFolderRemoved(folders, folder) },
      `Removed ${folder} from the extra lock folders`,
    );
    // Its button goes with it: focus stays in the section, on the way to add one.
    if (refused === undefined) field.current?.focus();
  };
  const add = async (typed: string): Promise<string | undefined> => {
    const next = withFolderAdded(folders, typed);
    if ('problem' in next) return next.problem;
    return adding.apply({ extraLockFolders: next.list }, `Added ${typed.trim()} to the extra lock folders`);
  };
  return (
    <section className="dt-settings-section" aria-labelledby="dt-settings-locks">
      <h2 id="dt-settings-locks">Extra lock folders</h2>
      <p className="dt-settings-hint">
        For forks of Claude Code that look for DiffTray’s lock file somewhere other than{' '}
        <code>~/.claude/ide</code>: each folder here gets it too (absolute, or starting with <code>~/</code>).
      </p>
      {folders.length > 0 && (
        <RemovableFolders
          label="Extra lock folders"
          folders={folders}
          busy={() => change.busy}
          onRemove={(folder) => void remove(folder)}
        />
      )}
      <Refusal message={change.refusal} />
      <AddFolderForm fieldLabel="Lock folder to add" add={add} fieldRef={field} />
    </section>
  );
}
