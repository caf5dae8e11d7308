/**
 * The note to the agent (docs/REVIEWING.md): what the person writes beside a decision. Drafts are the
 * renderer's own, one per review, kept while the person moves between reviews and dropped once sent.
 */
import { create } from 'zustand';
import { protocolHearsNotes } from '../../shared/client-protocols';
import type { ClientProtocol, ReviewItem } from '../../shared/app-api';
import { describeProtocol } from '../../shared/protocols';

/** The short line under the note box when the note cannot reach the agent; null when it can. */
export function noteUnheardText(protocol: ClientProtocol): string | null {
  if (protocolHearsNotes(protocol)) return null;
  const who = describeProtocol(protocol).spokenName ?? 'This client';
  return `${who} can't carry a note to the agent.`;
}

/**
 * Whether the note box offers the hooks' setup: Claude Code (and NEXUS3, which speaks its IDE protocol)
 * can hear notes through Claude Code's hooks (the descriptor's `notesVia`).
 */
export function offersHooksSetup(protocol: ClientProtocol): boolean {
  return describeProtocol(protocol).notesVia === 'claude-hooks';
}

/** What History and an ended review say about the note, or null when none was written. */
export function sentNoteText(review: Pick<ReviewItem, 'agentNote' | 'client'>): string | null {
  const note = review.agentNote?.trim();
  if (!note) return null;
  return protocolHearsNotes(review.client.protocol)
    ? `Note to the agent: ${note}`
    : `Note (kept here, not sent: ${review.client.name} can't receive it): ${note}`;
}

export interface NoteDraftsState {
  /** The note being written for each review, by review id. */
  drafts: Record<string, string>;
  setDraft(reviewId: string, text: string): void;
  /** The note went out with a decision (or the review ended): nothing is left to keep. */
  clearDraft(reviewId: string): void;
  /** Forgets drafts of reviews that are no longer waiting. */
  keepOnly(reviewIds: ReadonlySet<string>): void;
}

export const useNoteDrafts = create<NoteDraftsState>()((set, get) => ({
  drafts: {},
  setDraft: (reviewId, text) => set({ drafts: { ...get().drafts, [reviewId]: text } }),
  clearDraft: (reviewId) => {
    if (!(reviewId in get().drafts)) return;
    const drafts = { ...get().drafts };
    delete drafts[reviewId];
    set({ drafts });
  },
  keepOnly: (reviewIds) => {
    const entries = Object.entries(get().drafts);
    const kept = entries.filter(([id]) => reviewIds.has(id));
    if (kept.length !== entries.length) set({ drafts: Object.fromEntries(kept) });
  },
}));

/** The note to send with a decision on this review: the trimmed draft, or undefined when empty. */
export function noteToSend(reviewId: string): string | undefined {
  const text = useNoteDrafts.getState().drafts[reviewId]?.trim();
  return text ? text : undefined;
}
