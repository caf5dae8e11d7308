import { describe, expect, it } from 'vitest';
import { DEFAULT_KEY_MAP } from '../../../shared/keymap';
import { commandForKey } from '../../../src-renderer/keys/keyboard';

const key = (
  key: string,
  mods: Partial<{ ctrl: boolean; meta: boolean; alt: boolean; shift: boolean; code: string }> = {},
) => ({
  key,
  code: mods.code ?? (/^[a-z]$/i.test(key) ? `Key${key.toUpperCase()}` : ''),
  ctrlKey: mods.ctrl ?? false,
  metaKey: mods.meta ?? false,
  altKey: mods.alt ?? false,
  shiftKey: mods.shift ?? false,
});

describe('commandForKey (the default key map, docs/REVIEWING.md)', () => {
  it.each([
    [key('j'), 'nextHunk'],
    [key('k'), 'prevHunk'],
    [key('ArrowDown', { alt: true }), 'nextHunk'],
    [key('ArrowUp', { alt: true }), 'prevHunk'],
    [key('y', { ctrl: true }), 'acceptHunk'],
    [key('y', { meta: true }), 'acceptHunk'],
    [key('n', { ctrl: true }), 'rejectHunk'],
    [key('y', { ctrl: true, alt: true }), 'acceptAll'],
    // macOS: Alt turns Y into ¥, the physical key still says Y.
    [key('¥', { meta: true, alt: true, code: 'KeyY' }), 'acceptAll'],
    [key('n', { ctrl: true, alt: true }), 'rejectAll'],
    [key('u'), 'undo'],
    [key('z', { ctrl: true }), 'undo'],
    [key('Enter', { ctrl: true }), 'submit'],
    [key(']'), 'nextReview'],
    [key('['), 'prevReview'],
  ])('%o → %s', (event, command) => {
    expect(commandForKey(event, DEFAULT_KEY_MAP)).toBe(command);
  });

  it.each([
    key('J', { shift: true }),
    key('j', { alt: true }),
    key('ArrowDown'),
    key('Enter'),
    key('x'),
    key('c', { ctrl: true }),
  ])('ignores %o', (event) => {
    expect(commandForKey(event, DEFAULT_KEY_MAP)).toBeNull();
  });
});
