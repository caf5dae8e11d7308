/** Pairing codes (one use, 5 minutes, wrong tries and lock-out) and the paired clients' file. */
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PairedClients } from '../../src-main/core/pairing/paired-clients';
import { Pairing } from '../../src-main/core/pairing/pairing';
import {
  PAIRING_CODE_TTL_MS,
  PAIRING_LOCKOUT_MS,
  PairingCodes,
} from '../../src-main/core/pairing/pairing-codes';
import { makeTempDir } from '../support/temp';

function clock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

/** A wrong code for `code`: same length, another value. */
const wrongFor = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

describe('pairing codes', () => {
  it('are six digits, random, and each new one voids the last', () => {
    const codes = new PairingCodes();
    const seen = new Set<string>();
    for (let i = 0; i < 50; i++) {
      const { code } = codes.start();
      expect(code).toMatch(/^\d{6}$/);
      seen.add(code);
    }
    expect(seen.size).toBeGreaterThan(40);
    const first = codes.start().code;
    const second = codes.start().code;
    if (first !== second) expect(codes.redeem(first, 'a')).toMatchObject({ ok: false, why: 'wrong' });
    expect(codes.redeem(second, 'a')).toEqual({ ok: true });
  });

  it('work once', () => {
    const codes = new PairingCodes();
    const { code } = codes.start();
    expect(codes.redeem(code, 'a')).toEqual({ ok: true });
    expect(codes.redeem(code, 'a')).toEqual({ ok: false, why: 'no_code' });
  });

  it('expire after five minutes', () => {
    const time = clock();
    const codes = new PairingCodes(time.now);
    const { code, expiresAt } = codes.start();
    expect(expiresAt).toBe(time.now() + PAIRING_CODE_TTL_MS);
    time.advance(PAIRING_CODE_TTL_MS);
    expect(codes.expiresAt).toBeUndefined();
    expect(codes.redeem(code, 'a')).toEqual({ ok: false, why: 'no_code' });
    const again = codes.start();
    time.advance(PAIRING_CODE_TTL_MS + 1);
    expect(codes.redeem(again.code, 'a')).toEqual({ ok: false, why: 'expired' });
  });

  it('refuse the fourth try after three wrong ones, even the right code, for a minute', () => {
    const time = clock();
    const codes = new PairingCodes(time.now);
    const { code } = codes.start();
    expect(codes.redeem(wrongFor(code), '10.0.0.1')).toEqual({ ok: false, why: 'wrong' });
    expect(codes.redeem(wrongFor(code), '10.0.0.1')).toEqual({ ok: false, why: 'wrong' });
    const third = codes.redeem(wrongFor(code), '10.0.0.1');
    expect(third).toEqual({ ok: false, why: 'wrong', lockedUntil: time.now() + PAIRING_LOCKOUT_MS });
    expect(codes.redeem(code, '10.0.0.1')).toMatchObject({ ok: false, why: 'locked' });
    expect(codes.lockedUntil).toBe(time.now() + PAIRING_LOCKOUT_MS);
    time.advance(PAIRING_LOCKOUT_MS);
    expect(codes.lockedUntil).toBeUndefined();
    expect(codes.redeem(code, '10.0.0.1')).toEqual({ ok: true });
  });

  it('count wrong tries overall too: three sources one try each lock everyone out', () => {
    const codes = new PairingCodes();
    const { code } = codes.start();
    codes.redeem(wrongFor(code), 'a');
    codes.redeem(wrongFor(code), 'b');
    expect(codes.redeem(wrongFor(code), 'c')).toMatchObject({
      why: 'wrong',
      lockedUntil: expect.any(Number),
    });
    expect(codes.redeem(code, 'd')).toMatchObject({ ok: false, why: 'locked' });
  });

  it('treat a code of another length as wrong', () => {
    const codes = new PairingCodes();
    codes.start();
    expect(codes.redeem('1', 'a')).toEqual({ ok: false, why: 'wrong' });
    expect(codes.redeem('', 'a')).toEqual({ ok: false, why: 'wrong' });
  });
});

describe('paired clients', () => {
  it('are kept in a 0600 file with only the sha256 of their token, and found again after a restart', () => {
    const temp = makeTempDir('paired');
    const file = path.join(temp.dir, 'home', 'paired-clients.json');
    const clients = new PairedClients(file, () => 42);
    const { id, token } = clients.add('build-box');
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain(token);
    expect(text).toContain('build-box');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(file)).mode & 0o777).toBe(0o700);

    const reloaded = new PairedClients(file);
    expect(reloaded.verify(token)).toEqual({ id, name: 'build-box', pairedAt: 42 });
    const other = token.slice(0, -1) + (token.endsWith('0') ? '1' : '0');
    expect(reloaded.verify(other)).toBeUndefined();
    expect(reloaded.verify('')).toBeUndefined();
    expect(reloaded.revoke(id)).toBe(true);
    expect(reloaded.verify(token)).toBeUndefined();
    expect(new PairedClients(file).list()).toEqual([]);
  });

  it('note their last use', () => {
    const time = clock();
    const clients = new PairedClients(undefined, time.now);
    const { id, token } = clients.add('laptop');
    time.advance(5000);
    clients.touch(id);
    expect(clients.verify(token)?.lastUsedAt).toBe(time.now());
  });
});

describe('Pairing', () => {
  it('pairs with the right code, tells listeners of revocations, and refuses a revoked token at once', () => {
    const pairing = new Pairing();
    expect(() => pairing.start()).toThrow(/not listening/);
    pairing.setPort(4321);
    const started = pairing.start();
    expect(started.port).toBe(4321);
    expect(pairing.state().codeExpiresAt).toBe(started.expiresAt);
    const result = pairing.pair(started.code, 'ci-runner', '127.0.0.1');
    if (!result.ok) throw new Error(`not paired: ${result.why}`);
    expect(pairing.state().codeExpiresAt).toBeUndefined();
    expect(pairing.authenticate(result.token)?.name).toBe('ci-runner');
    const revoked: string[] = [];
    pairing.onRevoked((id) => revoked.push(id));
    pairing.revoke(result.id);
    expect(revoked).toEqual([result.id]);
    expect(pairing.authenticate(result.token)).toBeUndefined();
    expect(() => pairing.revoke(result.id)).toThrow(/No paired client/);
  });
});
