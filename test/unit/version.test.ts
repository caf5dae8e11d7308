import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DIFFTRAY_VERSION } from '../../shared/version';

describe('DIFFTRAY_VERSION', () => {
  it('is the version package.json states', () => {
    const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
    expect(DIFFTRAY_VERSION).toBe(manifest.version);
  });
});
