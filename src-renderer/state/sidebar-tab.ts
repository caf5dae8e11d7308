/**
 * Which sidebar view is open. Only the person changes it: a tab, or a button that says where it goes
 * (the empty state's "Open Connections"); nothing that arrives does.
 */
import { create } from 'zustand';

export type SidebarTab = 'queue' | 'history' | 'connections';

export interface SidebarTabState {
  tab: SidebarTab;
  setTab(tab: SidebarTab): void;
}

export const useSidebarTab = create<SidebarTabState>()((set) => ({
  tab: 'queue',
  setTab: (tab) => set({ tab }),
}));
