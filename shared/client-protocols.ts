/**
 * The protocols agents connect through, and what each can carry: a note to the agent, a decision on
 * part of a proposal, lines sent as context. The UI and core ask these, never the protocol's name; the
 * answers come from each protocol's descriptor (shared/protocols/).
 */

import { describeProtocol } from './protocols';
import type { ClientProtocol } from './protocols/descriptor';

export type { ClientProtocol } from './protocols/descriptor';

/** Whether a protocol can carry the person's note to the agent (its descriptor's `notes`; docs/REVIEWING.md). */
export function protocolHearsNotes(protocol: ClientProtocol): boolean {
  return describeProtocol(protocol).capabilities.notes;
}

/**
 * Whether a protocol can apply what the person composed from part of a proposal. Copilot CLI's `/ide`
 * cannot: its reviews are accepted or rejected whole.
 */
export function protocolAppliesPartialDecisions(protocol: ClientProtocol): boolean {
  return describeProtocol(protocol).capabilities.partialDecisions;
}

/** Whether a protocol can take lines a person sends to the agent as context ("Send to agent"). */
export function protocolTakesSelections(protocol: ClientProtocol): boolean {
  return describeProtocol(protocol).capabilities.sendToAgent;
}

/** Which text of a review's file lines are chosen in: what the file held, or the agent's proposal. */
export type SelectionSide = 'base' | 'proposed';

/** What a pause is remembered by: a program, not one connection (a hook connects once per edit). */
export function clientPauseKey(client: { protocol: ClientProtocol; name: string }): string {
  return `${client.protocol}:${client.name}`;
}
