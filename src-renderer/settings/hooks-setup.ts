/**
 * Which agent's hooks dialog is open, and whether it sets them up or removes them. Its buttons live in
 * several places (the empty state, Connections, the note box); the dialog itself is rendered once, by App.
 */
import { create } from 'zustand';
import type { SetupAgent } from '../../shared/hook-setup/agent-hooks';

export const HOOKS_SETUP_LABEL = 'Set up Claude Code hooks…';

/** The dialog's errand: one agent, set up (or updated) or removed. */
export interface HooksErrand {
  agent: SetupAgent;
  remove: boolean;
}

export interface HooksSetupState {
  /** The open dialog's errand; null when it is closed. */
  open: HooksErrand | null;
  show(agent: SetupAgent, remove?: boolean): void;
  hide(): void;
}

export const useHooksSetup = create<HooksSetupState>()((set) => ({
  open: null,
  show: (agent, remove = false) => set({ open: { agent, remove } }),
  hide: () => set({ open: null }),
}));
