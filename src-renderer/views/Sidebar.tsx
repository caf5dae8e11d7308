import { useRef, type KeyboardEvent } from 'react';
import type { AppSnapshot } from '../../shared/app-api';
import { connectedClients, groupQueue, historyEntries, tabCount } from '../state/sidebar-model';
import { useSidebarTab, type SidebarTab as Tab } from '../state/sidebar-tab';
// Before the panels: their stylesheets refine the lists styled here, and must come later in the cascade.
import './Sidebar.css';
import { ConnectionsList } from './ConnectionsList';
import { HistoryList } from './HistoryList';
import { QueueList } from './QueueList';
import { ShortcutLegend } from './ShortcutLegend';
import { SettingsButton } from '../settings/SettingsButton';
import { SidebarSettingsNotice } from '../settings/sections/SettingsFileBanner';
import { SidebarWatchNotice } from './WatchIssue';
const TABS: Array<{ id: Tab; label: string }> = [
  { id: 'queue', label: 'Queue' },
  { id: 'history', label: 'History' },
  { id: 'connections', label: 'Connections' },
];

/**
 * The sidebar: three views behind tabs (WAI-ARIA tabs: arrow keys move between them, Tab goes into
 * the panel), then any problem with the settings file, the way into Settings (the theme is chosen
 * there) and the shortcut legend. Only the person switches tabs; nothing that arrives does.
 */
export function Sidebar({
  snapshot,
  selectedId,
}: {
  snapshot: AppSnapshot | null;
  selectedId: string | null;
}) {
  const tab = useSidebarTab((s) => s.tab);
  const setTab = useSidebarTab((s) => s.setTab);
  const tabRefs = useRef(new Map<Tab, HTMLButtonElement>());
  const groups = groupQueue(snapshot);
  const history = historyEntries(snapshot);
  const clients = connectedClients(snapshot);
  const pendingByClient = new Map(groups.map((group) => [group.client.id, group.reviews.length]));
  const idleClients = clients.filter((client) => !pendingByClient.has(client.id));
  const counts: Record<Tab, number> = {
    queue: groups.reduce((sum, group) => sum + group.reviews.length, 0),
    history: history.length,
    connections: clients.length,
  };

  const onTabKeyDown = (event: KeyboardEvent<HTMLButtonElement>): void => {
    const position = TABS.findIndex((t) => t.id === tab);
    let next: number | undefined;
    if (event.key === 'ArrowRight' || event.key === 'ArrowDown') next = (position + 1) % TABS.length;
    else if (event.key === 'ArrowLeft' || event.key === 'ArrowUp')
      next = (position - 1 + TABS.length) % TABS.length;
    else if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = TABS.length - 1;
    const target = next === undefined ? undefined : TABS[next];
    if (!target || event.altKey || event.ctrlKey || event.metaKey) return;
    event.preventDefault();
    setTab(target.id);
    // The person pressed an arrow key on the tab list: moving focus along is what they asked for.
    tabRefs.current.get(target.id)?.focus();
  };

  return (
    <>
      <div className="dt-tabs" role="tablist" aria-label="Sidebar views">
        {TABS.map((t) => (
          <button
            key={t.id}
            ref={(element) => {
              if (element) tabRefs.current.set(t.id, element);
              else tabRefs.current.delete(t.id);
            }}
            type="button"
            role="tab"
            id={`dt-tab-${t.id}`}
            className="dt-tab"
            aria-selected={tab === t.id}
            aria-controls={tab === t.id ? `dt-panel-${t.id}` : undefined}
            tabIndex={tab === t.id ? 0 : -1}
            onClick={() => setTab(t.id)}
            onKeyDown={onTabKeyDown}
          >
            {t.label}
            {/* The count is shown, not part of the tab's name; each panel's heading says it exactly. */}
            <span className="dt-tab-count" aria-hidden="true">
              {tabCount(counts[t.id])}
            </span>
          </button>
        ))}
      </div>
      <div
        className="dt-tab-panel"
        role="tabpanel"
        id={`dt-panel-${tab}`}
        aria-labelledby={`dt-tab-${tab}`}
        data-tab={tab}
      >
        {/* Before main's state is in, nothing is listed: an empty list would say what may be untrue. */}
        {snapshot && tab === 'queue' && (
          <QueueList groups={groups} idleClients={idleClients} selectedId={selectedId} />
        )}
        {snapshot && tab === 'history' && <HistoryList reviews={history} selectedId={selectedId} />}
        {snapshot && tab === 'connections' && (
          <ConnectionsList
            clients={clients}
            pendingByClient={pendingByClient}
            pausedClients={snapshot.pausedClients}
            workspaceFolders={snapshot.workspaceFolders}
            watchedFolders={snapshot.watchedFolders}
            watchIssues={snapshot.watchIssues}
            trustedPrograms={snapshot.trustedPrograms}
          />
        )}
      </div>
      <div className="dt-sidebar-footer">
        <SidebarWatchNotice
          workspaceFolders={snapshot?.workspaceFolders ?? []}
          issues={snapshot?.watchIssues ?? []}
        />
        <SidebarSettingsNotice file={snapshot?.settingsFile} />
        <div className="dt-sidebar-settings">
          <SettingsButton />
        </div>
        <ShortcutLegend />
      </div>
    </>
  );
}
