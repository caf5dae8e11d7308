import { describe, expect, it } from 'vitest';
import {
  activeCode,
  lockoutText,
  pairingCommands,
  timeLeft,
} from '../../../src-renderer/settings/pairing-model';
import { reviewPath } from '../../../src-renderer/review/remote-paths';

describe('the pairing section', () => {
  const shown = { code: '012345', expiresAt: 300_000, port: 4242, hostKeyFingerprint: 'SHA256:x' };

  it('shows the code while main still has it active, and not once used, expired or replaced', () => {
    expect(activeCode(shown, { codeExpiresAt: 300_000 }, 1000)).toBe(shown);
    expect(activeCode(shown, {}, 1000)).toBeUndefined();
    expect(activeCode(shown, { codeExpiresAt: 300_000 }, 300_000)).toBeUndefined();
    expect(activeCode(shown, { codeExpiresAt: 400_000 }, 1000)).toBeUndefined();
    expect(timeLeft(300_000, 1000)).toBe('4:59');
  });

  it('says the lock-out while it lasts', () => {
    expect(lockoutText({ lockedUntil: 60_000 }, 1000)).toBe('Pairing locked for 59 s after 3 wrong codes');
    expect(lockoutText({ lockedUntil: 60_000 }, 60_000)).toBeUndefined();
    expect(lockoutText(undefined, 0)).toBeUndefined();
  });

  it('gives the tunnel and pair commands for the port', () => {
    expect(pairingCommands(4242)).toEqual({
      tunnel: 'ssh -R 4242:127.0.0.1:4242 you@remote-host',
      pair: 'difftray pair --port 4242',
    });
  });

  it("shows a remote review's paths as the client gave them, on its host", () => {
    expect(reviewPath({ remote: { clientName: 'laptop' } }, '/ws/a.txt', ['/ws'])).toBe(
      '/ws/a.txt on laptop',
    );
    expect(reviewPath({}, '/ws/a.txt', ['/ws'])).toBe('a.txt');
  });
});
