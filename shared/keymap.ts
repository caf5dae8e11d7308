/**
 * The review keyboard map as data: which key chords run which command. The person may change any
 * command's chords in Settings (stored as `keyMap` in settings.json, only the commands changed); a
 * map in which one chord runs two commands is refused, in main and in the window alike.
 *
 * A chord is written as modifiers then a key, joined by "+": "Mod+Alt+Y", "Alt+ArrowDown", "J", "]".
 * "Mod" is Cmd on macOS and Ctrl elsewhere (the window takes either). Keys are matched as typed, so
 * they follow the person's keyboard layout; a letter with Mod or Alt held that types no Latin letter
 * (Alt+Y is "¥" on macOS, Ctrl+Н on a Russian layout) is matched by its physical key instead
 * (src-renderer/keys/key-chords.ts). Letters are written upper case; Shift+J is J with Shift.
 */
/** The review's own commands; the keys of selected lines (accept, reject, send) follow. */
export const REVIEW_COMMANDS = [
  'nextHunk',
  'prevHunk',
  'acceptHunk',
  'rejectHunk',
  'acceptAll',
  'rejectAll',
  'undo',
  'submit',
  'nextReview',
  'prevReview',
  'comment',
  'focusNote',
] as const;

export const KEY_COMMANDS = [...REVIEW_COMMANDS, 'acceptLines', 'rejectLines', 'sendToAgent'] as const;

export type KeyCommand = (typeof KEY_COMMANDS)[number];

/** Every command's chords; a command may have none (the person took its key away). */
export type KeyMap = Record<KeyCommand, string[]>;

export const DEFAULT_KEY_MAP: Readonly<KeyMap> = {
  nextHunk: ['J', 'Alt+ArrowDown'],
  prevHunk: ['K', 'Alt+ArrowUp'],
  acceptHunk: ['Mod+Y'],
  rejectHunk: ['Mod+N'],
  acceptAll: ['Mod+Alt+Y'],
  rejectAll: ['Mod+Alt+N'],
  undo: ['U', 'Mod+Z'],
  submit: ['Mod+Enter'],
  nextReview: [']'],
  prevReview: ['['],
  comment: ['C'],
  focusNote: ['N'],
  acceptLines: ['Mod+Shift+Y'],
  rejectLines: ['Mod+Shift+N'],
  sendToAgent: ['Mod+Shift+S'],
};

/** What each command does, as the legend and Settings name it (and main's refusals too). */
export const KEY_COMMAND_NAMES: Readonly<Record<KeyCommand, string>> = {
  nextHunk: 'Next hunk',
  prevHunk: 'Previous hunk',
  acceptHunk: 'Accept current hunk',
  rejectHunk: 'Reject current hunk',
  acceptAll: 'Accept all hunks',
  rejectAll: 'Reject all hunks',
  undo: 'Undo last decision',
  submit: 'Submit review',
  nextReview: 'Next review',
  prevReview: 'Previous review',
  comment: 'Comment on the current line',
  focusNote: 'Write the note to the agent',
  acceptLines: 'Accept the selected lines',
  rejectLines: 'Reject the selected lines',
  sendToAgent: 'Send the selected lines to the agent',
};

/**
 * The modifiers, in the order a chord is written. The window takes Ctrl or Cmd alike for Mod on every
 * platform (a Ctrl habit works on a Mac too), so "Ctrl" and "Cmd" are read as Mod: kept apart, "Ctrl+Y"
 * and "Mod+Y" would be one key that two commands could hold.
 */
const MODIFIERS = ['Mod', 'Alt', 'Shift'] as const;
export type Modifier = (typeof MODIFIERS)[number];
const MODIFIER_NAMES: ReadonlyMap<string, Modifier> = new Map([
  ['mod', 'Mod'],
  ['ctrl', 'Mod'],
  ['cmd', 'Mod'],
  ['alt', 'Alt'],
  ['shift', 'Shift'],
]);

/** Keys by name; any other key is one printable character. */
const NAMED_KEYS = [
  'Enter',
  'Escape',
  'Tab',
  'Space',
  'Backspace',
  'Delete',
  'ArrowUp',
  'ArrowDown',
  'ArrowLeft',
  'ArrowRight',
  'Home',
  'End',
  'PageUp',
  'PageDown',
  ...Array.from({ length: 12 }, (_, i) => `F${i + 1}`),
];
const NAMED_KEY_BY_LOWER: ReadonlyMap<string, string> = new Map(NAMED_KEYS.map((k) => [k.toLowerCase(), k]));

/**
 * Chords the window needs for itself: moving between controls and pressing them, closing a dialog,
 * and the clipboard and find in the diff. Taken by the review map (read before anything else on the
 * page), they would stop working.
 */
const RESERVED_CHORDS: ReadonlyMap<string, string> = new Map([
  ['Tab', 'moving between controls'],
  ['Shift+Tab', 'moving between controls'],
  ['Enter', 'pressing the control in focus'],
  ['Space', 'pressing the control in focus'],
  ['Escape', 'closing dialogs'],
  ['Mod+C', 'copying'],
  ['Mod+X', 'cutting'],
  ['Mod+V', 'pasting'],
  ['Mod+A', 'selecting all'],
  ['Mod+F', 'finding in the diff'],
]);

export interface Chord {
  modifiers: ReadonlySet<Modifier>;
  /** A named key, or one character (letters upper case). */
  key: string;
}

/** A key matched by a letter (A-Z), as opposed to a named key or another character. */
export const isLetterKey = (key: string): boolean => /^[A-Z]$/.test(key);

/** Parses a chord, or says why it is not one. */
export function parseChord(text: string): Chord | { problem: string } {
  const parts = text.split('+');
  // "Mod++" is Mod and the "+" key: an empty part before a final empty part.
  if (parts.length >= 2 && parts.at(-1) === '' && parts.at(-2) === '') parts.splice(-2, 2, '+');
  const key = parts.pop() ?? '';
  const modifiers = new Set<Modifier>();
  for (const part of parts) {
    const modifier = MODIFIER_NAMES.get(part.toLowerCase());
    if (!modifier) return { problem: `"${part}" is not a modifier (use ${MODIFIERS.join(', ')})` };
    if (modifiers.has(modifier)) return { problem: `${modifier} is given twice` };
    modifiers.add(modifier);
  }
  const named = NAMED_KEY_BY_LOWER.get(key.toLowerCase());
  if (named) return { modifiers, key: named };
  if ([...key].length !== 1 || key.trim() === '') return { problem: `"${key}" is not a key` };
  // "ß" upper-cases to "SS"; such a character stays as it is.
  const upper = [...key.toUpperCase()].length === 1 ? key.toUpperCase() : key;
  // Shift is part of typing a character other than a letter ("?" is Shift+/ on one keyboard, not on
  // another), so such a key is written as the character Shift gives.
  if (modifiers.has('Shift') && !isLetterKey(upper)) {
    return { problem: `write the character Shift+${key} types instead of Shift` };
  }
  return { modifiers, key: upper };
}

/** The one way to write a chord: modifiers in a fixed order, then the key. */
export function chordText(chord: Chord): string {
  return [...MODIFIERS.filter((m) => chord.modifiers.has(m)), chord.key].join('+');
}

/** The chord written the one way, or undefined when it is not a chord. */
export function normalChord(text: string): string | undefined {
  const chord = parseChord(text);
  return 'problem' in chord ? undefined : chordText(chord);
}

/** Why a chord cannot be given to a command (not a chord, or one the window keeps), or undefined. */
export function chordProblem(text: string): string | undefined {
  const chord = parseChord(text);
  if ('problem' in chord) return chord.problem;
  const keptFor = RESERVED_CHORDS.get(chordText(chord));
  return keptFor ? `${chordText(chord)} is kept for ${keptFor}` : undefined;
}

/** The defaults with the person's changes laid over them, each chord written the one way, once. */
export function effectiveKeyMap(changes: Partial<Record<KeyCommand, readonly string[]>>): KeyMap {
  const map = {} as KeyMap;
  for (const command of KEY_COMMANDS) {
    const chords = changes[command] ?? DEFAULT_KEY_MAP[command];
    map[command] = [...new Set(chords.map((chord) => normalChord(chord) ?? chord))];
  }
  return map;
}

/** Chords that run more than one command, each with the commands it would run. */
export function keyMapConflicts(map: KeyMap): Array<{ chord: string; commands: KeyCommand[] }> {
  const byChord = new Map<string, KeyCommand[]>();
  for (const command of KEY_COMMANDS) {
    for (const chord of new Set(map[command].map((text) => normalChord(text) ?? text))) {
      byChord.set(chord, [...(byChord.get(chord) ?? []), command]);
    }
  }
  return [...byChord]
    .filter(([, commands]) => commands.length > 1)
    .map(([chord, commands]) => ({ chord, commands }));
}

/**
 * "Mod+Y is used for both acceptHunk and undo": by the names settings.json has, since that is where a
 * map refused by main was written (Settings refuses a taken chord before sending, by the names it shows).
 */
export function conflictText(conflict: { chord: string; commands: readonly KeyCommand[] }): string {
  return `${conflict.chord} is used for both ${conflict.commands.join(' and ')}`;
}

/** At most this many chords per command: enough for a letter and an arrow, and a bound on the file. */
export const MAX_CHORDS_PER_COMMAND = 4;

/**
 * The `keyMap` setting: the commands the person changed. Its schema (a map with a chord used twice is
 * refused) is in keymap-schema.ts, apart, so the window's first script holds no zod.
 */
export type KeyMapChanges = Partial<Record<KeyCommand, string[]>>;
