import { describe, expect, it } from 'vitest';
import { keyMapChangesSchema } from '../../../shared/keymap-schema';
import { withChord, withDefaultKeys, withoutChord } from '../../../src-renderer/keys/key-map-editor';

describe('editing the key map in Settings', () => {
  it('changes a command to a chord pressed, keeping only the changed command', () => {
    expect(withChord({}, 'acceptHunk', 'Mod+Shift+H', 'replace', false)).toEqual({
      changes: { acceptHunk: ['Mod+Shift+H'] },
    });
    expect(withChord({}, 'nextHunk', 'Alt+J', 'add', false)).toEqual({
      changes: { nextHunk: ['J', 'Alt+ArrowDown', 'Alt+J'] },
    });
  });

  it('refuses on the spot a chord another command holds, saying which', () => {
    expect(withChord({}, 'rejectHunk', 'Mod+Y', 'replace', false)).toEqual({
      refused: 'Ctrl+Y is already Accept current hunk',
    });
    expect(withChord({}, 'rejectHunk', 'Mod+Y', 'replace', true)).toEqual({
      refused: '⌘+Y is already Accept current hunk',
    });
    // Once moved off, the chord is free.
    const moved = withChord({}, 'acceptHunk', 'Mod+Shift+H', 'replace', false);
    if (!('changes' in moved)) throw new Error(moved.refused);
    expect(withChord(moved.changes, 'rejectHunk', 'Mod+Y', 'replace', false)).toEqual({
      changes: { acceptHunk: ['Mod+Shift+H'], rejectHunk: ['Mod+Y'] },
    });
  });

  it('refuses a chord the window keeps, and a fifth key', () => {
    expect(withChord({}, 'nextHunk', 'Tab', 'replace', false)).toEqual({
      refused: 'Tab is kept for moving between controls',
    });
    const full = { nextHunk: ['J', 'Alt+ArrowDown', 'Alt+J', 'Mod+J'] };
    expect(withChord(full, 'nextHunk', 'Mod+Alt+J', 'add', false)).toEqual({
      refused: 'Next hunk has 4 keys already',
    });
  });

  it('drops a command set back to its default keys', () => {
    const changed = { nextHunk: ['Alt+ArrowDown'] };
    expect(withChord(changed, 'nextHunk', 'J', 'add', false)).toEqual({ changes: {} });
    expect(withChord({ acceptHunk: ['Mod+Shift+H'] }, 'acceptHunk', 'Mod+Y', 'replace', false)).toEqual({
      changes: {},
    });
  });

  it('removes one chord, leaving a command with no key at all if that was its last', () => {
    expect(withoutChord({}, 'nextHunk', 'J')).toEqual({ nextHunk: ['Alt+ArrowDown'] });
    expect(withoutChord({}, 'acceptHunk', 'Mod+Y')).toEqual({ acceptHunk: [] });
    expect(keyMapChangesSchema.safeParse({ acceptHunk: [] }).success).toBe(true);
  });

  it('resets a command, unless another command now holds its key', () => {
    expect(withDefaultKeys({ acceptHunk: ['Mod+Shift+H'], undo: ['U'] }, 'acceptHunk')).toEqual({
      changes: { undo: ['U'] },
    });
    expect(
      withDefaultKeys({ acceptHunk: ['Mod+Shift+H'], rejectHunk: ['Mod+N', 'Mod+Y'] }, 'acceptHunk', false),
    ).toEqual({ refused: 'Ctrl+Y is now Reject current hunk' });
  });

  it('only ever makes maps the settings schema takes', () => {
    let changes = {};
    for (const [command, chord, mode] of [
      ['acceptHunk', 'Mod+Shift+H', 'replace'],
      ['rejectHunk', 'Mod+Y', 'add'],
      ['undo', 'Mod+Shift+H', 'add'],
      ['submit', 'Mod+Alt+Enter', 'add'],
    ] as const) {
      const edit = withChord(changes, command, chord, mode, false);
      if ('changes' in edit) changes = edit.changes;
      expect(keyMapChangesSchema.safeParse(changes).success).toBe(true);
    }
    expect(changes).toEqual({
      acceptHunk: ['Mod+Shift+H'],
      rejectHunk: ['Mod+N', 'Mod+Y'],
      submit: ['Mod+Enter', 'Mod+Alt+Enter'],
    });
  });
});
