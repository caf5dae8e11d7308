/**
 * A connection prompt is answered in the window, which may be hidden in the tray: each new one is also
 * told through a system notification (which takes no focus), or it would time out unseen.
 */
import type { AppChange } from '../../shared/app-api';
import { connectionPromptTitle } from '../../shared/connection-wording';

export interface ConnectionNotice {
  requestId: string;
  title: string;
  body: string;
}

/**
 * The prompts a change brings that were not told yet. `told` holds the ids already told; those no longer
 * waiting are dropped from it, so it stays as small as the list.
 */
export function connectionNotices(change: AppChange, told: Set<string>): ConnectionNotice[] {
  const requests = change.connectionRequests;
  if (!requests) return [];
  const waiting = new Set(requests.map((request) => request.id));
  for (const id of told) if (!waiting.has(id)) told.delete(id);
  return requests
    .filter((request) => !told.has(request.id))
    .map((request) => {
      told.add(request.id);
      return {
        requestId: request.id,
        title: connectionPromptTitle(request),
        body: 'Open DiffTray to allow or deny it.',
      };
    });
}
