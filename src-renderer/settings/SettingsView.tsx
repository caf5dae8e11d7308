import { useEffect, useRef } from 'react';
import type { AppSnapshot } from '../../shared/app-api';
import { knownClients, settingsOrDefaults } from './settings-model';
import { closeSettings } from './settings-view';
import { KeyMapSettings } from './KeyMapSettings';
import { ClientsSection } from './sections/ClientsSection';
import { ExtraLockFoldersSection } from './sections/ExtraLockFoldersSection';
import { LaunchAtLoginSection, NotificationsSection, ThemeSection } from './sections/PreferenceSections';
import { SettingsFileBanner } from './sections/SettingsFileBanner';
import { TurnReviewSection } from './sections/TurnReviewSection';
import { WorkspaceFoldersSection } from './sections/WorkspaceFoldersSection';
import './settings.css';

/**
 * Settings, in place of the review: every section applies a change at once (no Save, no restart).
 * What each shows is main's snapshot; a change main refuses says why beside its control.
 */
export function SettingsView({ snapshot }: { snapshot: AppSnapshot | null }) {
  const heading = useRef<HTMLHeadingElement>(null);
  const settings = settingsOrDefaults(snapshot);
  // The person opened it: their focus goes along, to its heading.
  useEffect(() => heading.current?.focus(), []);
  // Escape leaves Settings wherever focus is (a removed folder's button takes it away), unless a part
  // of it used the key (recording a key) or a dialog is open over it.
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent): void => {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      if (document.querySelector('dialog[open]')) return;
      event.preventDefault();
      closeSettings();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);
  return (
    <section className="dt-settings" aria-labelledby="dt-settings-title" data-testid="settings">
      <header className="dt-settings-header">
        <h1 id="dt-settings-title" ref={heading} tabIndex={-1}>
          Settings
        </h1>
        <button type="button" onClick={() => closeSettings()}>
          Close settings
        </button>
      </header>
      <SettingsFileBanner file={snapshot?.settingsFile} />
      <p className="dt-settings-hint">Each change applies at once.</p>
      <WorkspaceFoldersSection folders={snapshot?.workspaceFolders ?? []} />
      <ClientsSection rows={knownClients(snapshot)} settings={settings} />
      <TurnReviewSection settings={settings.turnReview} />
      <NotificationsSection settings={settings} />
      <LaunchAtLoginSection settings={settings} />
      <ThemeSection />
      <KeyMapSettings />
      <ExtraLockFoldersSection folders={settings.extraLockFolders} />
    </section>
  );
}
