import { describe, expect, it } from 'vitest';
import { tabLabel } from '../../src-main/bridge/tab-label';

describe('tabLabel: a CLI tab name as a review description', () => {
  it("drops Claude Code's icons at either end (⧉ has no glyph in the UI font)", () => {
    expect(tabLabel('✻ [Claude Code] app.ts (1a2b3c) ⧉')).toBe('[Claude Code] app.ts (1a2b3c)');
    expect(tabLabel('⧉ app.ts')).toBe('app.ts');
  });

  it('keeps names without such icons, and symbols inside a name, as they are', () => {
    expect(tabLabel('app.ts (edit)')).toBe('app.ts (edit)');
    expect(tabLabel('a ⧉ b')).toBe('a ⧉ b');
    expect(tabLabel('café ünïcode (x)')).toBe('café ünïcode (x)');
  });

  it('a name of icons only is kept whole', () => {
    expect(tabLabel('⧉')).toBe('⧉');
  });
});

describe('tabLabel keeps ASCII at the ends', () => {
  it('a name ending in an ASCII sign is not cut', () => {
    expect(tabLabel('a.ts <')).toBe('a.ts <');
    expect(tabLabel('+ a.ts')).toBe('+ a.ts');
  });
});
