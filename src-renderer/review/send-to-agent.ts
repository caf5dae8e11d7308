/**
 * "Send to agent": the lines the person selected in one side of the diff, pointed out to the review's
 * agent as context where its protocol can carry them (protocolTakesSelections). Pure: which lines of
 * which text a selection stands for, what is said about them, and the key that sends them.
 */
import { protocolTakesSelections } from '../../shared/client-protocols';
import type { ClientInfo, SelectionSide } from '../../shared/app-api';
import { describeProtocol } from '../../shared/protocols';
import type { KeyMap } from '../../shared/keymap';
import { commandInMap, type KeyInfo } from '../keys/key-chords';
import { currentKeyMap } from '../keys/key-map';
import { installKeyHandler } from '../keys/keyboard';
import { keptForTyping } from '../keys/line-keys';
import type { EditorLineSelection } from './line-selection';

/** Lines of one side of a file: 0-based, both ends included (what AppApi.sendSelection takes). */
export interface LinesToSend {
  side: SelectionSide;
  startLine: number;
  endLine: number;
}

export type ResolvedLinesToSend = ({ ok: true } & LinesToSend) | { ok: false; reason: string };

export const NOTHING_TO_SEND_REASON = 'Select lines in the diff (or click a line) to send them';

/**
 * The one block of lines a selection covers. EditorLineSelection's ranges are 1-based editor lines
 * (Monaco's), a caret already standing for its own line (line-selection.ts selectedLineRanges); the
 * left editor shows the base text, the right one the proposal. Several separate blocks are refused:
 * an agent is pointed at one place.
 */
export function linesToSend(selection: EditorLineSelection | null): ResolvedLinesToSend {
  const ranges = selection?.ranges ?? [];
  const only = ranges[0];
  if (!selection || !only) return { ok: false, reason: NOTHING_TO_SEND_REASON };
  if (ranges.length > 1) return { ok: false, reason: 'Select one block of lines to send it' };
  return {
    ok: true,
    side: selection.side === 'original' ? 'base' : 'proposed',
    startLine: only[0] - 1,
    endLine: only[1] - 1,
  };
}

/** "lines 3–7" or "line 3", numbered as the editor shows them (from 1). */
export function lineSpanText(lines: LinesToSend): string {
  const first = lines.startLine + 1;
  const last = lines.endLine + 1;
  return first === last ? `line ${first}` : `lines ${first}–${last}`;
}

/** "lines 3–7 of the proposal": what the button would send, shown beside it. */
export function sendSummary(lines: LinesToSend): string {
  const text = lines.side === 'base' ? 'the file as it was' : 'the proposal';
  const span = lineSpanText(lines);
  return `${span.charAt(0).toUpperCase()}${span.slice(1)} of ${text}`;
}

/** "Sent lines 3–7 of a.txt to Claude Code" (base lines: "of the original a.txt"). */
export function sentAnnouncement(lines: LinesToSend, fileName: string, clientName: string): string {
  const file = lines.side === 'base' ? `the original ${fileName}` : fileName;
  return `Sent ${lineSpanText(lines)} of ${file} to ${clientName}`;
}

/** Why lines of this review cannot be sent to its client now, or null when they can. */
export function sendUnavailableText(review: {
  client: Pick<ClientInfo, 'protocol' | 'name' | 'connected'>;
  textsDropped?: true;
}): string | null {
  const { client } = review;
  if (!protocolTakesSelections(client.protocol)) {
    const who = describeProtocol(client.protocol).spokenName ?? client.name;
    return `${who} can't receive lines: Send to agent is not available.`;
  }
  if (!client.connected) return `${client.name} is disconnected: lines can't be sent to it.`;
  // The window may still show its diff from its cache; main no longer has the lines to send.
  if (review.textsDropped) return "This review's texts are no longer kept: lines can't be sent from it.";
  return null;
}

/** The key map's send key (Mod+Shift+S by default: no key Monaco or Chromium takes). */
export function isSendKey(e: KeyInfo, keyMap: KeyMap): boolean {
  return commandInMap(e, keyMap, ['sendToAgent']) !== null;
}

/**
 * Installs the send key. Like the line keys it works inside the diff, also while the proposal is
 * edited (the selection is made there); text fields outside the diff keep their keys.
 */
export function installSendKey(
  win: Window,
  send: () => void,
  keyMap: () => KeyMap = currentKeyMap,
): () => void {
  return installKeyHandler(win, (e) => (isSendKey(e, keyMap()) ? 'send' : null), send, keptForTyping);
}
