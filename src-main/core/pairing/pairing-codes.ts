/**
 * The pairing code: six crypto-random digits, one at a time, valid for five minutes and for one use.
 *
 * Wrong codes are counted per source (the peer's address) and overall, each at most PAIRING_MAX_WRONG
 * a minute; the third wrong one locks that source (or, overall, everyone) out for a minute. Both are
 * needed: through a tunnel (`ssh -R`) every peer is 127.0.0.1, so a per-address count alone says
 * nothing, and the overall count bounds what any number of sources can guess to 3 a minute (at most ~15
 * guesses in a code's five minutes: a 1 in 66,000 chance). The price is that a local process guessing
 * wrong can hold pairing up for a minute; it cannot pair.
 *
 * Codes are compared in constant time, and a redeemed code is gone before the token is handed out.
 */
import { randomInt, timingSafeEqual } from 'node:crypto';
import { PAIRING_MAX_WRONG } from '../../../shared/limits';

export const PAIRING_CODE_TTL_MS = 5 * 60_000;
// Shared, as the window says it too.
export { PAIRING_MAX_WRONG };
export const PAIRING_WINDOW_MS = 60_000;
export const PAIRING_LOCKOUT_MS = 60_000;

export type RedeemResult =
  { ok: true } | { ok: false; why: 'no_code' | 'expired' | 'wrong' | 'locked'; lockedUntil?: number };

interface WrongTries {
  windowStart: number;
  count: number;
  lockedUntil: number;
}

const OVERALL = '*';

export class PairingCodes {
  private active: { code: string; expiresAt: number } | undefined;
  private readonly wrong = new Map<string, WrongTries>();

  constructor(private readonly now: () => number = Date.now) {}

  /** A fresh code (any earlier one is void). */
  start(): { code: string; expiresAt: number } {
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    this.active = { code, expiresAt: this.now() + PAIRING_CODE_TTL_MS };
    return { ...this.active };
  }

  cancel(): void {
    this.active = undefined;
  }

  /** The active code's expiry, if one is active and not expired. */
  get expiresAt(): number | undefined {
    if (this.active && this.active.expiresAt <= this.now()) this.active = undefined;
    return this.active?.expiresAt;
  }

  /** When pairing is locked overall, or undefined. */
  get lockedUntil(): number | undefined {
    const until = this.wrong.get(OVERALL)?.lockedUntil ?? 0;
    return until > this.now() ? until : undefined;
  }

  /** Checks `code` from `source` and, when right, uses it up. */
  redeem(code: string, source: string): RedeemResult {
    const now = this.now();
    const locked = Math.max(this.lockOf(source, now), this.lockOf(OVERALL, now));
    if (locked > now) return { ok: false, why: 'locked', lockedUntil: locked };
    const active = this.active;
    if (!active) return { ok: false, why: 'no_code' };
    if (active.expiresAt <= now) {
      this.active = undefined;
      return { ok: false, why: 'expired' };
    }
    if (!sameCode(code, active.code)) {
      const until = Math.max(this.countWrong(source, now), this.countWrong(OVERALL, now));
      return until > now ? { ok: false, why: 'wrong', lockedUntil: until } : { ok: false, why: 'wrong' };
    }
    this.active = undefined;
    return { ok: true };
  }

  private lockOf(key: string, now: number): number {
    const tries = this.wrong.get(key);
    return tries && tries.lockedUntil > now ? tries.lockedUntil : 0;
  }

  /** Counts one wrong try; returns when the key is locked until (0: not locked). */
  private countWrong(key: string, now: number): number {
    let tries = this.wrong.get(key);
    if (!tries || now - tries.windowStart >= PAIRING_WINDOW_MS) {
      tries = { windowStart: now, count: 0, lockedUntil: 0 };
      this.wrong.set(key, tries);
    }
    tries.count++;
    if (tries.count >= PAIRING_MAX_WRONG) {
      tries.lockedUntil = now + PAIRING_LOCKOUT_MS;
      tries.windowStart = tries.lockedUntil;
      tries.count = 0;
    }
    // Sources are few (loopback peers); forget the quiet ones so the map stays small.
    if (this.wrong.size > 1000) this.forgetQuiet(now);
    return tries.lockedUntil;
  }

  private forgetQuiet(now: number): void {
    for (const [key, tries] of this.wrong) {
      if (key !== OVERALL && tries.lockedUntil <= now && now - tries.windowStart >= PAIRING_WINDOW_MS) {
        this.wrong.delete(key);
      }
    }
  }
}

/** Constant time for equal lengths; a code of another length is wrong without looking. */
function sameCode(given: string, expected: string): boolean {
  const a = Buffer.from(given, 'utf8');
  const b = Buffer.from(expected, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}
