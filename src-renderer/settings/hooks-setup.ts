/**
 * Whether the "Set up Claude Code hooks" dialog is open. Its buttons live in several places (the empty
 * state, Connections, the note box); the dialog itself is rendered once, by App.
 */
import { create } from 'zustand';

export const HOOKS_SETUP_LABEL = 'Set up Claude Code hooks…';

export interface HooksSetupState {
  open: boolean;
  show(): void;
  hide(): void;
}

export const useHooksSetup = create<HooksSetupState>()((set) => ({
  open: false,
  show: () => set({ open: true }),
  hide: () => set({ open: false }),
}));
