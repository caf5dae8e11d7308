/**
 * Pausing reviews per client (Connections): a paused client's proposals pass through DiffTray at once,
 * unreviewed. Only clients that can go ahead on their own can be paused (their descriptor's `pause`):
 * Claude Code's hooks (Claude then asks in its terminal), the native protocol (the proposal is refused
 * with "reviews paused") and watch mode.
 */
import { clientPauseKey } from '../../shared/client-protocols';
import type { ClientInfo, ClientProtocol, PausedClient } from '../../shared/app-api';
import { describeProtocol } from '../../shared/protocols';

export function canPause(protocol: ClientProtocol): boolean {
  return describeProtocol(protocol).capabilities.pause !== null;
}

/** The toggle's accessible name: "Pause reviews from Claude Code" / "Resume reviews from Claude Code". */
export function pauseButtonLabel(name: string, paused: boolean): string {
  return `${paused ? 'Resume' : 'Pause'} reviews from ${name}`;
}

/** What a pause means for this client, in one line. */
export function pauseExplanation(protocol: ClientProtocol): string {
  // A pause settings.json remembers for a protocol that has none is said in general words.
  return (
    describeProtocol(protocol).capabilities.pause ??
    'Paused: its proposals go through without review in DiffTray.'
  );
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
