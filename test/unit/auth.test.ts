import { describe, it, expect } from 'vitest';
import { generateToken, singleHeader, tokensEqual } from '../../src-main/loopback/auth';

describe('generateToken', () => {
  it('is 64 lowercase hex characters (32 random bytes)', () => {
    for (let i = 0; i < 20; i++) expect(generateToken()).toMatch(/^[0-9a-f]{64}$/);
  });

  it('differs on every call', () => {
    const tokens = new Set(Array.from({ length: 100 }, () => generateToken()));
    expect(tokens.size).toBe(100);
  });
});

describe('tokensEqual', () => {
  const token = 'a'.repeat(64);

  it('is true for the same token', () => {
    expect(tokensEqual(token, token)).toBe(true);
    const generated = generateToken();
    expect(tokensEqual(`${generated}`, generated)).toBe(true);
    expect(tokensEqual('', '')).toBe(true);
    expect(tokensEqual('ünïcødé 🔑', 'ünïcødé 🔑')).toBe(true);
  });

  it('is false for a different token of the same length', () => {
    expect(tokensEqual('a'.repeat(63) + 'b', token)).toBe(false);
    expect(tokensEqual(token.toUpperCase(), token)).toBe(false);
  });

  it('is false for undefined', () => {
    expect(tokensEqual(undefined, token)).toBe(false);
    expect(tokensEqual(undefined, '')).toBe(false);
  });

  it('is false, without throwing, for different lengths', () => {
    expect(tokensEqual('a', token)).toBe(false);
    expect(tokensEqual(token + 'a', token)).toBe(false);
    expect(tokensEqual('', token)).toBe(false);
    expect(tokensEqual(token, '')).toBe(false);
    expect(tokensEqual(token.slice(0, 32), token)).toBe(false);
  });

  it('is false for a token with a trailing space or newline', () => {
    expect(tokensEqual(`${token} `, token)).toBe(false);
    expect(tokensEqual(`${token}\n`, token)).toBe(false);
  });
});

describe('singleHeader', () => {
  it('passes a single value through', () => {
    expect(singleHeader('abc')).toBe('abc');
    expect(singleHeader('')).toBe('');
  });

  it('refuses a repeated header and a missing one', () => {
    expect(singleHeader(['abc', 'def'])).toBeUndefined();
    expect(singleHeader(['abc'])).toBeUndefined();
    expect(singleHeader([])).toBeUndefined();
    expect(singleHeader(undefined)).toBeUndefined();
  });
});
