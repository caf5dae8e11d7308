import { describe, expect, it } from 'vitest';
import { DEFAULT_KEY_MAP, effectiveKeyMap } from '../../../shared/keymap';
import { chordLabel, chordOfEvent, keysLabel, withKeys } from '../../../src-renderer/keys/key-chords';
import { commandForKey } from '../../../src-renderer/keys/keyboard';
import { lineCommandForKey } from '../../../src-renderer/keys/line-keys';
import { isSendKey } from '../../../src-renderer/review/send-to-agent';

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

describe('the chord a key press is', () => {
  it.each([
    [key('j'), 'J'],
    [key('J', { shift: true }), 'Shift+J'],
    [key('y', { ctrl: true }), 'Mod+Y'],
    [key('y', { meta: true }), 'Mod+Y'],
    [key('Y', { ctrl: true, shift: true }), 'Mod+Shift+Y'],
    // macOS: Alt turns Y into ¥ and E into a dead key; the key itself still says which letter.
    [key('¥', { meta: true, alt: true, code: 'KeyY' }), 'Mod+Alt+Y'],
    [key('Dead', { alt: true, code: 'KeyE' }), 'Alt+E'],
    // A Russian layout: Ctrl with the key marked Y types "н".
    [key('н', { ctrl: true, code: 'KeyY' }), 'Mod+Y'],
    // AZERTY: the letter typed wins when it is a Latin letter (Z sits where QWERTY has W).
    [key('z', { ctrl: true, code: 'KeyW' }), 'Mod+Z'],
    // Shift is part of the character typed when it is not a letter.
    [key('?', { shift: true, code: 'Slash' }), '?'],
    [key('}', { ctrl: true, shift: true, code: 'BracketRight' }), 'Mod+}'],
    [key(' ', { code: 'Space' }), 'Space'],
    [key('ArrowDown', { alt: true }), 'Alt+ArrowDown'],
    [key('+', { ctrl: true, code: 'Equal' }), 'Mod++'],
  ])('%o is %s', (event, chord) => {
    expect(chordOfEvent(event)).toBe(chord);
  });

  it.each([key('Shift', { shift: true }), key('Control', { ctrl: true }), key('Meta', { meta: true })])(
    'a modifier on its own (%o) is no chord',
    (event) => {
      expect(chordOfEvent(event)).toBeNull();
    },
  );
});

describe('a remapped key', () => {
  const map = effectiveKeyMap({ acceptHunk: ['Mod+Shift+H', 'A'], nextHunk: ['Alt+J'], sendToAgent: [] });

  it('runs its command, and the old key no longer does', () => {
    expect(commandForKey(key('H', { ctrl: true, shift: true }), map)).toBe('acceptHunk');
    expect(commandForKey(key('a'), map)).toBe('acceptHunk');
    expect(commandForKey(key('y', { ctrl: true }), map)).toBeNull();
    // On macOS Alt+J types "∆": still the J key.
    expect(commandForKey(key('∆', { alt: true, code: 'KeyJ' }), map)).toBe('nextHunk');
    expect(commandForKey(key('j'), map)).toBeNull();
    expect(commandForKey(key('ArrowDown', { alt: true }), map)).toBeNull();
  });

  it('leaves the other commands on their defaults', () => {
    expect(commandForKey(key('n', { ctrl: true }), map)).toBe('rejectHunk');
    expect(lineCommandForKey(key('Y', { meta: true, shift: true }), map)).toBe('acceptLines');
  });

  it('takes a command its key away entirely', () => {
    expect(isSendKey(key('S', { ctrl: true, shift: true }), DEFAULT_KEY_MAP)).toBe(true);
    expect(isSendKey(key('S', { ctrl: true, shift: true }), map)).toBe(false);
  });

  it('takes Ctrl or Cmd for Mod on any platform, as before', () => {
    expect(commandForKey(key('h', { meta: true, shift: true }), map)).toBe('acceptHunk');
    expect(commandForKey(key('h', { ctrl: true, shift: true }), map)).toBe('acceptHunk');
  });
});

describe('labels', () => {
  it('show Mod as ⌘ and Alt as ⌥ on macOS', () => {
    expect(chordLabel('Mod+Alt+Y', true)).toBe('⌘+⌥+Y');
    expect(keysLabel(DEFAULT_KEY_MAP, 'nextHunk', true)).toBe('J / ⌥+↓');
    expect(keysLabel(DEFAULT_KEY_MAP, 'sendToAgent', true)).toBe('⌘+Shift+S');
  });

  it('show Mod as Ctrl and Alt as Alt elsewhere', () => {
    expect(chordLabel('Mod+Alt+Y', false)).toBe('Ctrl+Alt+Y');
    expect(keysLabel(DEFAULT_KEY_MAP, 'prevHunk', false)).toBe('K / Alt+↑');
    expect(keysLabel(DEFAULT_KEY_MAP, 'undo', false)).toBe('U / Ctrl+Z');
    expect(keysLabel(DEFAULT_KEY_MAP, 'submit', false)).toBe('Ctrl+Enter');
  });

  it('follow the map, and say nothing of a command with no key', () => {
    const map = effectiveKeyMap({ acceptHunk: ['Mod+Shift+H'], submit: [] });
    expect(withKeys('Accept current hunk', map, 'acceptHunk', false)).toBe(
      'Accept current hunk (Ctrl+Shift+H)',
    );
    expect(withKeys('Submit review', map, 'submit', false)).toBe('Submit review');
  });
});
