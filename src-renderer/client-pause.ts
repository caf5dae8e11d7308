/**
 * Pausing reviews per client (Connections): a paused client's proposals pass through DiffTray at once,
 * unreviewed. Only clients that can go ahead on their own can be paused: Claude Code's hooks (Claude
 * then asks in its terminal) and the native protocol (the proposal is refused with "reviews paused").
 */
import { clientPauseKey, type ClientInfo, type ClientProtocol, type PausedClient } from '../shared/app-api';

export function canPause(protocol: ClientProtocol): boolean {
  return protocol === 'claude-hooks' || protocol === 'native' || protocol === 'watch';
}

/** The toggle's accessible name: "Pause reviews from Claude Code" / "Resume reviews from Claude Code". */
export function pauseButtonLabel(name: string, paused: boolean): string {
  return `${paused ? 'Resume' : 'Pause'} reviews from ${name}`;
}

/** What a pause means for this client, in one line. */
export function pauseExplanation(protocol: ClientProtocol): string {
  if (protocol === 'claude-hooks') {
    return 'Paused: its edits go through without review in DiffTray (Claude Code asks in its terminal).';
  }
  if (protocol === 'watch') {
    return 'Paused: changes on disk are kept without review, and later changes are compared with them.';
  }
  return 'Paused: its proposals go through without review in DiffTray.';
}

export function isClientPaused(client: ClientInfo, paused: readonly PausedClient[]): boolean {
  const key = clientPauseKey(client);
  return paused.some((entry) => entry.key === key);
}

/** Paused clients with no connection now: listed apart, so they can be resumed (a hook connects only to ask). */
export function pausedWithoutConnection(
  paused: readonly PausedClient[],
  connected: readonly ClientInfo[],
): PausedClient[] {
  const connectedKeys = new Set(connected.map(clientPauseKey));
  return paused.filter((entry) => !connectedKeys.has(entry.key));
}
