import { useEffect, useRef, useState } from 'react';
import type { ConnectionAnswer, ConnectionRequest } from '../../shared/app-api';
import { useApi } from '../state/api-context';
import {
  canAllowAlways,
  connectionPromptAnnouncement,
  connectionPromptTitle,
  NAME_ONLY_WARNING,
  programDescription,
} from './connection-prompts';
import { errorMessage } from '../review/review-model';
import { useAppStore } from '../state/store';
import './ConnectionPrompts.css';

const answered: Record<ConnectionAnswer, string> = {
  once: 'allowed once',
  always: 'allowed always',
  deny: 'denied',
};

/**
 * Clients without a token waiting for the person: a card each at the top of the window, with Allow once,
 * Always allow this program and Deny. Not a dialog: it takes no focus from a review in progress; a new
 * one is read out through the live region.
 */
export function ConnectionPrompts({ requests }: { requests: readonly ConnectionRequest[] }) {
  const api = useApi();
  const announce = useAppStore((s) => s.announce);
  const [busy, setBusy] = useState<ReadonlySet<string>>(new Set());
  const seen = useRef(new Set<string>());

  useEffect(() => {
    for (const request of requests) {
      if (seen.current.has(request.id)) continue;
      seen.current.add(request.id);
      announce(connectionPromptAnnouncement(request));
    }
  }, [requests, announce]);

  if (requests.length === 0) return null;

  const answer = async (request: ConnectionRequest, choice: ConnectionAnswer): Promise<void> => {
    setBusy((ids) => new Set(ids).add(request.id));
    try {
      await api.call('answerConnectionRequest', { requestId: request.id, answer: choice });
      announce(`${request.name} ${answered[choice]}`);
    } catch (error) {
      const folders = useAppStore.getState().snapshot?.workspaceFolders ?? [];
      announce(`Could not answer ${request.name}: ${errorMessage(error, folders)}`);
    } finally {
      setBusy((ids) => {
        const next = new Set(ids);
        next.delete(request.id);
        return next;
      });
    }
  };

  return (
    <section
      className="dt-connection-prompts"
      aria-label="Connection requests"
      data-testid="connection-prompts"
    >
      {requests.map((request) => {
        const titleId = `dt-connection-prompt-${request.id}`;
        const program = programDescription(request);
        return (
          <article
            key={request.id}
            className="dt-banner dt-connection-prompt"
            aria-labelledby={titleId}
            data-request-id={request.id}
          >
            <strong id={titleId}>{connectionPromptTitle(request)}</strong>
            <p className="dt-connection-prompt-note">
              {request.identifiedBy === 'name'
                ? NAME_ONLY_WARNING
                : program
                  ? `Program: ${program}. It sent no token; nothing is taken from it until you allow it.`
                  : 'It sent no token; nothing is taken from it until you allow it.'}
            </p>
            <div className="dt-connection-prompt-actions">
              <button
                type="button"
                disabled={busy.has(request.id)}
                onClick={() => void answer(request, 'once')}
              >
                Allow once
              </button>
              {canAllowAlways(request) && (
                <button
                  type="button"
                  disabled={busy.has(request.id)}
                  onClick={() => void answer(request, 'always')}
                >
                  Always allow this program
                </button>
              )}
              <button
                type="button"
                className="dt-danger"
                disabled={busy.has(request.id)}
                onClick={() => void answer(request, 'deny')}
              >
                Deny
              </button>
            </div>
          </article>
        );
      })}
    </section>
  );
}
