import type { Ref } from 'react';
import { useApi } from '../state/api-context';
import { useIsDesktop } from '../carriers/carrier-kind';
import { errorMessage } from '../review/review-model';
import { EMPTY_PATH_PROBLEM } from '../settings/settings-model';
import { useAppStore } from '../state/store';
import { AddFolderForm } from '../settings/sections/AddFolderForm';

/**
 * Adding a workspace folder: "Choose folder…" in the desktop app, a typed path anywhere. Main checks the
 * folder (not the root, not a system folder...) and says why when it refuses; that reason is shown
 * beside the field. Used by Settings and by the first-run empty state.
 */
export function AddWorkspaceFolder({ fieldRef }: { fieldRef?: Ref<HTMLInputElement> } = {}) {
  const api = useApi();
  const desktop = useIsDesktop();
  const add = async (typed: string): Promise<string | undefined> => {
    const folder = typed.trim();
    if (folder === '') return EMPTY_PATH_PROBLEM;
    try {
      await api.call('addWorkspaceFolder', { folder });
      useAppStore.getState().announce(`Added ${folder} to the workspace folders`);
      return undefined;
    } catch (error) {
      return errorMessage(error, []);
    }
  };
  return (
    <AddFolderForm
      fieldLabel="Workspace folder to add"
      add={add}
      {...(fieldRef && { fieldRef })}
      {...(desktop && { pick: () => api.call('pickFolder', {}) })}
    />
  );
}
