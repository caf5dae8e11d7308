import { useRef, useState } from 'react';
import { useApi } from '../../state/api-context';
import { errorMessage } from '../../review/review-model';
import { WORKSPACE_HELP } from '../settings-model';
import { useAppStore } from '../../state/store';
import { AddWorkspaceFolder } from '../../views/AddWorkspaceFolder';
import { Refusal } from './Refusal';
import { RemovableFolders } from './RemovableFolders';

/** Settings → Workspace folders: the folders agents may work in, each with Remove, and Add. */
export function WorkspaceFoldersSection({ folders }: { folders: readonly string[] }) {
  const api = useApi();
  const [refusal, setRefusal] = useState<string>();
  const [busy, setBusy] = useState<string>();
  const field = useRef<HTMLInputElement>(null);
  const remove = async (folder: string): Promise<void> => {
    setBusy(folder);
    try {
      await api.call('removeWorkspaceFolder', { folder });
      setRefusal(undefined);
      // Its button goes with it: focus stays in the section, on the way to add one.
      field.current?.focus();
      useAppStore.getState().announce(`Removed ${folder} from the workspace folders`);
    } catch (error) {
      setRefusal(errorMessage(error, []));
    } finally {
      setBusy(undefined);
    }
  };
  return (
    <section className="dt-settings-section" aria-labelledby="dt-settings-folders">
      <h2 id="dt-settings-folders">Workspace folders</h2>
      <p className="dt-settings-hint">{WORKSPACE_HELP}</p>
      {folders.length === 0 ? (
        <p className="dt-settings-empty">None yet: agents cannot propose edits anywhere.</p>
      ) : (
        <RemovableFolders
          label="Workspace folders"
          folders={folders}
          busy={(folder) => busy === folder}
          onRemove={(folder) => void remove(folder)}
        />
      )}
      <Refusal message={refusal} />
      <AddWorkspaceFolder fieldRef={field} />
    </section>
  );
}
