import { describe, expect, it } from 'vitest';
import { appSettingsPatchSchema } from '../../shared/app-settings-schema';
import {
  chordProblem,
  DEFAULT_KEY_MAP,
  effectiveKeyMap,
  KEY_COMMANDS,
  keyMapConflicts,
  normalChord,
  parseChord,
} from '../../shared/keymap';
import { keyMapChangesSchema } from '../../shared/keymap-schema';

const problems = (input: unknown): string[] => {
  const result = keyMapChangesSchema.safeParse(input);
  return result.success ? [] : result.error.issues.map((issue) => issue.message);
};

describe('chords', () => {
  it.each([
    ['Mod+Alt+Y', 'Mod+Alt+Y'],
    ['Alt+Mod+y', 'Mod+Alt+Y'],
    ['shift+mod+n', 'Mod+Shift+N'],
    // Ctrl and Cmd are Mod: the window takes either key for it on every platform.
    ['Ctrl+Y', 'Mod+Y'],
    ['Cmd+Enter', 'Mod+Enter'],
    ['alt+arrowdown', 'Alt+ArrowDown'],
    ['j', 'J'],
    [']', ']'],
    ['+', '+'],
    ['Mod++', 'Mod++'],
    ['F5', 'F5'],
    ['?', '?'],
    ['ß', 'ß'],
  ])('%s is written %s', (text, written) => {
    expect(normalChord(text)).toBe(written);
  });

  it.each([
    ['', 'is not a key'],
    ['Mod+', 'is not a key'],
    ['Hyper+Y', '"Hyper" is not a modifier (use Mod, Alt, Shift)'],
    ['Mod+Mod+Y', 'Mod is given twice'],
    ['Ctrl+Mod+Y', 'Mod is given twice'],
    ['Mod+Shift', '"Shift" is not a key'],
    ['Mod+YY', '"YY" is not a key'],
    ['Shift+/', 'write the character Shift+/ types instead of Shift'],
  ])('%s is refused: %s', (text, problem) => {
    const parsed = parseChord(text);
    expect('problem' in parsed && parsed.problem).toContain(problem);
    expect(normalChord(text)).toBeUndefined();
  });

  it('keeps the keys the window needs for itself', () => {
    expect(chordProblem('Tab')).toBe('Tab is kept for moving between controls');
    expect(chordProblem('ctrl+c')).toBe('Mod+C is kept for copying');
    expect(chordProblem('Escape')).toBe('Escape is kept for closing dialogs');
    expect(chordProblem('Mod+Shift+C')).toBeUndefined();
  });
});

describe('the key map', () => {
  it('has defaults in which no chord runs two commands, each chord written the one way', () => {
    expect(keyMapConflicts({ ...DEFAULT_KEY_MAP })).toEqual([]);
    for (const command of KEY_COMMANDS) {
      for (const chord of DEFAULT_KEY_MAP[command]) {
        expect(normalChord(chord)).toBe(chord);
        expect(chordProblem(chord)).toBeUndefined();
      }
    }
    expect(keyMapChangesSchema.safeParse({}).success).toBe(true);
  });

  it('lays the changes over the defaults, writing each chord the one way, once', () => {
    const map = effectiveKeyMap({ acceptHunk: ['ctrl+h', 'Mod+H'], undo: [] });
    expect(map.acceptHunk).toEqual(['Mod+H']);
    expect(map.undo).toEqual([]);
    expect(map.rejectHunk).toEqual(['Mod+N']);
  });

  it('finds a chord two commands hold, however it is written', () => {
    expect(keyMapConflicts(effectiveKeyMap({ acceptHunk: ['Ctrl+N'] }))).toEqual([
      { chord: 'Mod+N', commands: ['acceptHunk', 'rejectHunk'] },
    ]);
  });

  it('is refused by the schema with a chord used twice, naming both commands as settings.json does', () => {
    expect(problems({ acceptHunk: ['Mod+N'] })).toEqual(['Mod+N is used for both acceptHunk and rejectHunk']);
    // Moving the other command off the chord in the same change is fine.
    expect(problems({ acceptHunk: ['Mod+N'], rejectHunk: ['Mod+Shift+R'] })).toEqual([]);
  });

  it('is refused by the schema with an unknown modifier, a kept chord, an unknown command or too many chords', () => {
    expect(problems({ acceptHunk: ['Super+Y'] })).toEqual([
      'Super+Y: "Super" is not a modifier (use Mod, Alt, Shift)',
    ]);
    expect(problems({ nextHunk: ['Tab'] })).toEqual(['Tab: Tab is kept for moving between controls']);
    expect(problems({ explode: ['X'] })).not.toEqual([]);
    expect(problems({ nextHunk: ['1', '2', '3', '4', '5'] })).not.toEqual([]);
  });

  it('is checked as part of a settings change', () => {
    expect(appSettingsPatchSchema.safeParse({ keyMap: { undo: ['Mod+Y'] } }).success).toBe(false);
    expect(appSettingsPatchSchema.safeParse({ keyMap: { undo: ['Mod+Shift+U'] } }).success).toBe(true);
  });
});
