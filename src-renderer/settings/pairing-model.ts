/** What the "Pair a remote agent" section says, from the pairing state main sends. */
import type { PairingStarted, PairingState } from '../../shared/app-api';
import { PAIRING_MAX_WRONG } from '../../shared/limits';

export const PAIR_BUTTON_LABEL = 'Pair a remote agent';

/** "4:59": what is left of a code. */
export function timeLeft(until: number, now: number): string {
  const seconds = Math.max(0, Math.ceil((until - now) / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

/** The lock-out line, while pairing is locked after wrong codes. */
export function lockoutText(state: PairingState | undefined, now: number): string | undefined {
  const until = state?.lockedUntil;
  if (until === undefined || until <= now) return undefined;
  return `Pairing locked for ${Math.ceil((until - now) / 1000)} s after ${PAIRING_MAX_WRONG} wrong codes`;
}

/**
 * The code on screen while main still has it active: gone once used (main's state no longer has a
 * code), expired, cancelled or replaced by another window's.
 */
export function activeCode(
  shown: PairingStarted | undefined,
  state: PairingState | undefined,
  now: number,
): PairingStarted | undefined {
  if (!shown || state?.codeExpiresAt !== shown.expiresAt || shown.expiresAt <= now) return undefined;
  return shown;
}

/** The two lines to run: the tunnel from the remote host, and the pairing there. */
export function pairingCommands(port: number): { tunnel: string; pair: string } {
  return {
    tunnel: `ssh -R ${port}:127.0.0.1:${port} you@remote-host`,
    pair: `difftray pair --port ${port}`,
  };
}
