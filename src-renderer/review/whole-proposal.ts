/**
 * Clients that apply a proposal whole (Copilot CLI writes its own proposal after `SAVED`): a review
 * that keeps part of it cannot be submitted, and Submit says why; Accept all and Reject… still work.
 */
import { protocolAppliesPartialDecisions } from '../../shared/client-protocols';
import type { ClientInfo } from '../../shared/app-api';
import type { DecisionCounts } from './review-model';

/** Why Submit is disabled for a partial decision on a whole-proposal client, or null. */
export function partialDecisionBlocker(
  client: Pick<ClientInfo, 'name' | 'protocol'>,
  counts: DecisionCounts,
): string | null {
  if (protocolAppliesPartialDecisions(client.protocol)) return null;
  // Undecided hunks go in as accepted.
  const keeps = counts.accepted + counts.pending;
  const partial = (counts.mixed ?? 0) > 0 || (counts.rejected > 0 && keeps > 0);
  if (!partial) return null;
  return `${client.name} applies its proposal whole: accept all, or reject it`;
}
