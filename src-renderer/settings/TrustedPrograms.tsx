import { useState } from 'react';
import type { TrustedProgram } from '../../shared/app-api';
import { useApi } from '../state/api-context';
import { NAME_ONLY_WARNING, programDescription } from '../views/connection-prompts';
import { errorMessage } from '../review/review-model';
import { useAppStore } from '../state/store';

/** Programs allowed to connect without a token ("Always allow this program"), each with Revoke. */
export function TrustedPrograms({ programs }: { programs: readonly TrustedProgram[] }) {
  const api = useApi();
  const announce = useAppStore((s) => s.announce);
  const [busy, setBusy] = useState<ReadonlySet<string>>(new Set());
  if (programs.length === 0) return null;

  const revoke = async (program: TrustedProgram): Promise<void> => {
    setBusy((keys) => new Set(keys).add(program.key));
    try {
      await api.call('revokeTrustedProgram', { key: program.key });
      announce(`${program.name} is no longer allowed without asking`);
    } catch (error) {
      const folders = useAppStore.getState().snapshot?.workspaceFolders ?? [];
      announce(`Could not revoke ${program.name}: ${errorMessage(error, folders)}`);
    } finally {
      setBusy((keys) => {
        const next = new Set(keys);
        next.delete(program.key);
        return next;
      });
    }
  };

  return (
    <section className="dt-trusted" aria-labelledby="dt-trusted-title" data-testid="trusted-programs">
      <h2 id="dt-trusted-title" className="dt-queue-title">
        Allowed without a token <span className="dt-count">{programs.length}</span>
      </h2>
      <ul>
        {programs.map((program) => {
          const description = programDescription(program);
          return (
            <li key={program.key} className="dt-client" data-trusted-key={program.key}>
              <h3 className="dt-client-name">{program.name}</h3>
              <p className="dt-client-note">{description ? <code>{description}</code> : NAME_ONLY_WARNING}</p>
              <button
                type="button"
                className="dt-danger"
                aria-label={`Revoke ${program.name}`}
                disabled={busy.has(program.key)}
                onClick={() => void revoke(program)}
              >
                Revoke
              </button>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
