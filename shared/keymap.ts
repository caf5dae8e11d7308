/**
 * The review keyboard map as data: which key chords run which command. The person may change any
 * command's chords in Settings (stored as `keyMap` in settings.json, only the commands changed); a
 * map in which one chord runs two commands is refused, in main and in the window alike.
 *
 * A chord is written as modifiers then a key, joined by "+": "Mod+Alt+Y", "Alt+ArrowDown", "J", "]".
 * "Mod" is Cmd on macOS and Ctrl elsewhere. A letter key is written upper case and matched by the
 * physical key when a modifier is held (Alt turns letters into symbols on macOS); a plain key is
 * matched by the character typed, so it follows the person's keyboard layout.
 */
import { z } from 'zod';

export const KEY_COMMANDS = [
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
  'acceptLines',
  'rejectLines',
  'sendToAgent',
] as const;

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
  acceptLines: ['Mod+Shift+Y'],
  rejectLines: ['Mod+Shift+N'],
  sendToAgent: ['Mod+Shift+S'],
};

const MODIFIERS = ['Mod', 'Ctrl', 'Alt', 'Shift'] as const;
export type Modifier = (typeof MODIFIERS)[number];

/** Keys by name; any other key is one printable character. */
const NAMED_KEYS = new Set([
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
]);

export interface Chord {
  modifiers: ReadonlySet<Modifier>;
  /** A named key, or one character (letters upper case). */
  key: string;
}

/** Parses a chord, or says why it is not one. */
export function parseChord(text: string): Chord | { problem: string } {
  const parts = text.split('+');
  // "Mod++" is Mod and the "+" key: an empty part before a final empty part.
  if (parts.length >= 2 && parts.at(-1) === '' && parts.at(-2) === '') parts.splice(-2, 2, '+');
  const key = parts.pop() ?? '';
  const modifiers = new Set<Modifier>();
  for (const part of parts) {
    const modifier = MODIFIERS.find((m) => m === part);
    if (!modifier) return { problem: `"${part}" is not a modifier (use ${MODIFIERS.join(', ')})` };
    if (modifiers.has(modifier)) return { problem: `${modifier} is given twice` };
    modifiers.add(modifier);
  }
  if (modifiers.has('Mod') && modifiers.has('Ctrl')) return { problem: 'Mod already means Ctrl here' };
  if (NAMED_KEYS.has(key)) return { modifiers, key };
  if ([...key].length !== 1 || key.trim() === '') return { problem: `"${key}" is not a key` };
  return { modifiers, key: key.toUpperCase() };
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

/** The defaults with the person's changes laid over them. */
export function effectiveKeyMap(changes: Partial<Record<KeyCommand, string[]>>): KeyMap {
  const map = { ...DEFAULT_KEY_MAP } as KeyMap;
  for (const command of KEY_COMMANDS) {
    const chords = changes[command];
    if (chords) map[command] = chords.map((chord) => normalChord(chord) ?? chord);
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

/** At most this many chords per command: enough for a letter and an arrow, and a bound on the file. */
export const MAX_CHORDS_PER_COMMAND = 4;

const chordField = z
  .string()
  .max(40)
  .superRefine((text, ctx) => {
    const chord = parseChord(text);
    if ('problem' in chord) ctx.addIssue({ code: 'custom', message: `${text}: ${chord.problem}` });
  });

/** The `keyMap` setting: the commands the person changed; a map with a chord used twice is refused. */
export const keyMapChangesSchema = z
  .object(
    Object.fromEntries(
      KEY_COMMANDS.map((command) => [command, z.array(chordField).max(MAX_CHORDS_PER_COMMAND).optional()]),
    ) as Record<KeyCommand, z.ZodOptional<z.ZodArray<typeof chordField>>>,
  )
  .strict()
  .superRefine((changes, ctx) => {
    for (const { chord, commands } of keyMapConflicts(effectiveKeyMap(changes))) {
      ctx.addIssue({ code: 'custom', message: `${chord} is used for both ${commands.join(' and ')}` });
    }
  });

export type KeyMapChanges = z.infer<typeof keyMapChangesSchema>;
