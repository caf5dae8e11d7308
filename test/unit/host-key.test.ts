/**
 * DiffTray's host key on disk (core/pairing/host-key.ts): made once, 0600, the same key on every start,
 * and a file that is not such a key left as it is. Real files in a temp folder.
 */
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SERVER_SIGNATURE_LABEL } from '../../shared/native-handshake';
import {
  fingerprintOf,
  isSignedBy,
  newNonce,
  sameHostKey,
} from '../../src-main/core/pairing/handshake-proof';
import { HostKey } from '../../src-main/core/pairing/host-key';
import { makeTempDir } from '../support/temp';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function folder(): string {
  const temp = makeTempDir('host-key');
  cleanups.push(temp.cleanup);
  return temp.dir;
}

describe('HostKey', () => {
  it('is made once (0600 in a 0700 folder) and is the same key on the next start', () => {
    const file = path.join(folder(), 'home', 'host-key.pem');
    const first = HostKey.loadOrCreate(file);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    const again = HostKey.loadOrCreate(file);
    expect(sameHostKey(first.info, again.info)).toBe(true);
    expect(again.info.fingerprint).toBe(fingerprintOf(again.info.public_key));
    expect(again.info.fingerprint).toMatch(/^SHA256:[A-Za-z0-9+/]{43}$/);
    const nonce = newNonce();
    expect(
      isSignedBy(first.info, SERVER_SIGNATURE_LABEL, nonce, again.sign(SERVER_SIGNATURE_LABEL, nonce)),
    ).toBe(true);
    expect(sameHostKey(first.info, HostKey.ephemeral().info)).toBe(false);
  });

  it('leaves a file that is not its key as it is, says so, and signs with a key of this run only', () => {
    const file = path.join(folder(), 'host-key.pem');
    writeFileSync(file, 'not a key\n', { mode: 0o600 });
    const logs: string[] = [];
    const key = HostKey.loadOrCreate(file, (line) => logs.push(line));
    expect(readFileSync(file, 'utf8')).toBe('not a key\n');
    expect(logs.join('\n')).toMatch(/is not DiffTray's key/);
    const nonce = newNonce();
    expect(isSignedBy(key.info, SERVER_SIGNATURE_LABEL, nonce, key.sign(SERVER_SIGNATURE_LABEL, nonce))).toBe(
      true,
    );
  });

  it('a signature does not stand for another label, another nonce or another key', () => {
    const key = HostKey.ephemeral();
    const nonce = newNonce();
    const signature = key.sign(SERVER_SIGNATURE_LABEL, nonce);
    expect(isSignedBy(key.info, 'DiffTray pairing v1: server signature\n', nonce, signature)).toBe(false);
    expect(isSignedBy(key.info, SERVER_SIGNATURE_LABEL, newNonce(), signature)).toBe(false);
    expect(isSignedBy(HostKey.ephemeral().info, SERVER_SIGNATURE_LABEL, nonce, signature)).toBe(false);
    expect(
      isSignedBy({ public_key: 'garbage', fingerprint: 'x' }, SERVER_SIGNATURE_LABEL, nonce, signature),
    ).toBe(false);
  });
});
