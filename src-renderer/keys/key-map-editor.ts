/**
 * Settings → Keyboard as data: the changes a person makes to the key map, before they are sent to main
 * (AppApi.updateSettings({ keyMap })). Only the commands that differ from the defaults are kept, so a
 * command set back to its keys is dropped, and a chord another command holds is refused here, on the
 * spot, with what holds it.
 */
import {
  chordProblem,
  DEFAULT_KEY_MAP,
  effectiveKeyMap,
  KEY_COMMAND_NAMES,
  KEY_COMMANDS,
  MAX_CHORDS_PER_COMMAND,
  normalChord,
  type KeyCommand,
  type KeyMapChanges,
} from '../../shared/keymap';
import { chordLabel, IS_MAC } from './key-chords';

export type KeyMapEdit = { changes: KeyMapChanges } | { refused: string };

/** Whether a command's keys are its defaults (in any order). */
function isDefault(command: KeyCommand, chords: readonly string[]): boolean {
  const defaults = DEFAULT_KEY_MAP[command];
  return chords.length === defaults.length && defaults.every((chord) => chords.includes(chord));
}

/** The changes with `command` given `chords`; dropped from them when those are its defaults. */
export function withCommandKeys(
  changes: KeyMapChanges,
  command: KeyCommand,
  chords: readonly string[],
): KeyMapChanges {
  const written = [...new Set(chords.map((chord) => normalChord(chord) ?? chord))];
  const next: KeyMapChanges = { ...changes };
  if (isDefault(command, written)) delete next[command];
  else next[command] = written;
  return next;
}

/**
 * The changes with `chord` given to `command`: in place of its keys (`replace`, the "Change" button)
 * or beside them (`add`). Refused when it is no chord the window lets go, when another command holds
 * it ("Ctrl+Y is already Accept current hunk"), or when the command has as many keys as it may.
 */
export function withChord(
  changes: KeyMapChanges,
  command: KeyCommand,
  chord: string,
  mode: 'replace' | 'add',
  mac = IS_MAC,
): KeyMapEdit {
  const problem = chordProblem(chord);
  if (problem) return { refused: problem };
  const written = normalChord(chord) ?? chord;
  const map = effectiveKeyMap(changes);
  const holder = KEY_COMMANDS.find((other) => map[other].includes(written));
  if (holder && (holder !== command || mode === 'add')) {
    return { refused: `${chordLabel(written, mac)} is already ${KEY_COMMAND_NAMES[holder]}` };
  }
  if (mode === 'replace') return { changes: withCommandKeys(changes, command, [written]) };
  if (map[command].length >= MAX_CHORDS_PER_COMMAND) {
    return { refused: `${KEY_COMMAND_NAMES[command]} has ${MAX_CHORDS_PER_COMMAND} keys already` };
  }
  return { changes: withCommandKeys(changes, command, [...map[command], written]) };
}

/** The changes without `chord` on `command` (which may then have no key at all). */
export function withoutChord(changes: KeyMapChanges, command: KeyCommand, chord: string): KeyMapChanges {
  const chords = effectiveKeyMap(changes)[command];
  return withCommandKeys(
    changes,
    command,
    chords.filter((held) => held !== chord),
  );
}

/**
 * The changes with `command` back on its defaults; refused while another command holds one of them
 * (the person gave it away), saying which.
 */
export function withDefaultKeys(changes: KeyMapChanges, command: KeyCommand, mac = IS_MAC): KeyMapEdit {
  const next: KeyMapChanges = { ...changes };
  delete next[command];
  const map = effectiveKeyMap(next);
  for (const chord of DEFAULT_KEY_MAP[command]) {
    const holder = KEY_COMMANDS.find((other) => other !== command && map[other].includes(chord));
    if (holder) return { refused: `${chordLabel(chord, mac)} is now ${KEY_COMMAND_NAMES[holder]}` };
  }
  return { changes: next };
}

/** Whether the person changed this command's keys. */
export const isChanged = (changes: KeyMapChanges, command: KeyCommand): boolean =>
  changes[command] !== undefined;
