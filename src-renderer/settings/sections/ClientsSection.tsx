import { useState } from 'react';
import type { AppSettings } from '../../../shared/app-api';
import { useApi } from '../../state/api-context';
import { errorMessage } from '../../review/review-model';
import {
  AUTO_APPLY_HINT,
  AUTO_APPLY_LABEL,
  clientRowDetail,
  NO_PAUSE_HINT,
  PAUSE_HINT,
  PAUSE_LABEL,
  withAutoApply,
  type KnownClientRow,
} from '../settings-model';
import { useAppStore } from '../../state/store';
import { Refusal } from './Refusal';
import { SettingSwitch } from './SettingSwitch';
import { useSettingsChange } from './use-settings-change';

const AUTO_APPLY_HINT_ID = 'dt-settings-auto-apply-hint';
const PAUSE_HINT_ID = 'dt-settings-pause-hint';

/** Pausing a client's reviews by its pause key, as Connections does; a refusal is kept to show. */
function usePause(): { set(row: KnownClientRow, paused: boolean): Promise<void>; refusal?: string } {
  const api = useApi();
  const [refusal, setRefusal] = useState<string>();
  return {
    refusal,
    set: async (row, paused) => {
      if (!row.pauseKey) return;
      try {
        await api.call('setClientPaused', { key: row.pauseKey, paused });
        setRefusal(undefined);
        useAppStore
          .getState()
          .announce(paused ? `Reviews from ${row.name} paused` : `Reviews from ${row.name} resumed`);
      } catch (error) {
        setRefusal(errorMessage(error, []));
      }
    },
  };
}

/** Settings → Clients: per known client, "Apply without review" and "Pause reviews". */
export function ClientsSection({
  rows,
  settings,
}: {
  rows: readonly KnownClientRow[];
  settings: AppSettings;
}) {
  const change = useSettingsChange();
  const pause = usePause();
  const setAutoApply = (row: KnownClientRow, on: boolean): void =>
    void change.apply(
      { autoApply: withAutoApply(settings.autoApply, row.name, on) },
      on ? `${row.name}: proposals are applied without review` : `${row.name}: proposals wait for review`,
    );
  return (
    <section className="dt-settings-section" aria-labelledby="dt-settings-clients">
      <h2 id="dt-settings-clients">Clients</h2>
      <dl className="dt-settings-hints">
        <dt>{AUTO_APPLY_LABEL}</dt>
        <dd id={AUTO_APPLY_HINT_ID}>{AUTO_APPLY_HINT}</dd>
        <dt>{PAUSE_LABEL}</dt>
        <dd id={PAUSE_HINT_ID}>{PAUSE_HINT}</dd>
      </dl>
      {rows.length === 0 ? (
        <p className="dt-settings-empty">
          No client has connected yet; each one is listed here once it does.
        </p>
      ) : (
        <ul className="dt-settings-clients">
          {rows.map((row, index) => {
            const headingId = `dt-settings-client-${index}`;
            return (
              <li key={row.key}>
                <div
                  role="group"
                  className="dt-settings-client"
                  aria-labelledby={headingId}
                  data-client-key={row.key}
                >
                  <h3 id={headingId}>{row.name}</h3>
                  <p className="dt-settings-hint">{clientRowDetail(row)}</p>
                  <SettingSwitch
                    label={AUTO_APPLY_LABEL}
                    checked={row.autoApply}
                    busy={change.busy}
                    describedBy={AUTO_APPLY_HINT_ID}
                    onToggle={(on) => setAutoApply(row, on)}
                  />
                  {row.pauseKey ? (
                    <SettingSwitch
                      label={PAUSE_LABEL}
                      checked={row.paused}
                      describedBy={PAUSE_HINT_ID}
                      onToggle={(paused) => void pause.set(row, paused)}
                    />
                  ) : (
                    row.protocol && <p className="dt-settings-hint">{NO_PAUSE_HINT}</p>
                  )}
                </div>
              </li>
            );
          })}
        </ul>
      )}
      <Refusal message={change.refusal ?? pause.refusal} />
    </section>
  );
}
