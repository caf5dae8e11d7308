/**
 * Asking main to change settings (AppApi.updateSettings) from one section of Settings: while the call
 * runs the section is busy; a refusal (an invalid value, a settings file that cannot be used) is kept
 * to show beside the control, and the outcome of a change that went through is read out. The switches
 * themselves follow main's snapshot, not what was asked.
 */
import { useState } from 'react';
import type { AppSettingsPatch } from '../../../shared/app-api';
import { useApi } from '../../state/api-context';
import { errorMessage } from '../../review/review-model';
import { useAppStore } from '../../state/store';

export interface SettingsChange {
  /** Answers main's refusal, or undefined when the change went through. */
  apply(patch: AppSettingsPatch, outcome: string): Promise<string | undefined>;
  busy: boolean;
  refusal: string | undefined;
}

export function useSettingsChange(): SettingsChange {
  const api = useApi();
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<string>();
  const apply = async (patch: AppSettingsPatch, outcome: string): Promise<string | undefined> => {
    setBusy(true);
    try {
      await api.call('updateSettings', patch);
      setRefusal(undefined);
      useAppStore.getState().announce(outcome);
      return undefined;
    } catch (error) {
      const message = errorMessage(error, useAppStore.getState().snapshot?.workspaceFolders ?? []);
      setRefusal(message);
      return message;
    } finally {
      setBusy(false);
    }
  };
  return { apply, busy, refusal };
}
