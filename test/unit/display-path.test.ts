import { describe, expect, it } from 'vitest';
import { displayPath } from '../../src-main/bridge/display-path';

describe('displayPath', () => {
  it('shows paths inside a workspace folder relative to it, others as given', () => {
    expect(displayPath('/w/src/a.ts', ['/x', '/w'])).toBe('src/a.ts');
    expect(displayPath('/w2/a.ts', ['/w'])).toBe('/w2/a.ts');
    expect(displayPath('/a.ts', ['/w'])).toBe('/a.ts');
  });

  it('keeps names that merely begin with two dots inside the folder', () => {
    expect(displayPath('/w/..env', ['/w'])).toBe('..env');
  });
});
