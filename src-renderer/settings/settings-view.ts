/**
 * Whether the Settings view is on screen in place of the review. The person opens it (the sidebar's
 * Settings button, the tray's "Settings…") and leaves it (Close, Escape, its button again, or choosing
 * a review); nothing that arrives closes it.
 */
import { create } from 'zustand';
import type { AppApi } from '../../shared/app-api';

export const SETTINGS_BUTTON_ID = 'dt-settings-button';

export interface SettingsViewState {
  open: boolean;
  show(): void;
  hide(): void;
}

export const useSettingsView = create<SettingsViewState>()((set) => ({
  open: false,
  show: () => set({ open: true }),
  hide: () => set({ open: false }),
}));

/** Closes Settings and gives focus back to the button that opens it, where the person came from. */
export function closeSettings(doc: Document | undefined = globalThis.document): void {
  useSettingsView.getState().hide();
  doc?.getElementById(SETTINGS_BUTTON_ID)?.focus();
}

/** Opens Settings when the desktop shell asks (the tray's "Settings…"); returns the unsubscribe. */
export function openSettingsOnRequest(api: Pick<AppApi, 'onState'>): () => void {
  return api.onState((event) => {
    if ('open' in event && event.open === 'settings') useSettingsView.getState().show();
  });
}
