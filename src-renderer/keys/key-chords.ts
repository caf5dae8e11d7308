/**
 * Key events against the key map (shared/keymap.ts): which chord a key press is, which command of a
 * map it runs, and how a chord is shown. Pure, so the same rule serves the window's keys and the
 * Settings recorder: a chord recorded there is the chord that later runs the command.
 */
import {
  isLetterKey,
  normalChord,
  parseChord,
  type KeyCommand,
  type KeyMap,
  type Modifier,
} from '../../shared/keymap';

export type KeyInfo = Pick<KeyboardEvent, 'key' | 'code' | 'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey'>;

export const IS_MAC = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);

const isLatinLetter = (key: string): boolean => /^[a-z]$/i.test(key);

/**
 * The chord a key press is, written the one way, or null for a press that is no chord (a modifier on
 * its own, a dead key). Ctrl and Cmd are both Mod. Keys go by the character typed, so they follow
 * the layout; but with Mod or Alt held a letter key that types no Latin letter (Alt+Y is "¥" on
 * macOS, Ctrl+Y types "н" on a Russian layout) counts as the letter on the key. Shift is part of a
 * character other than a letter ("?" is Shift+/ on US keyboards), so it is left out for those.
 */
export function chordOfEvent(e: KeyInfo): string | null {
  const mod = e.ctrlKey || e.metaKey;
  let key = e.key === ' ' ? 'Space' : e.key;
  if ((mod || e.altKey) && !isLatinLetter(key) && /^Key[A-Z]$/.test(e.code)) key = e.code.slice(3);
  const single = [...key].length === 1;
  const modifiers: Modifier[] = [];
  if (mod) modifiers.push('Mod');
  if (e.altKey) modifiers.push('Alt');
  if (e.shiftKey && !(single && !isLetterKey(key.toUpperCase()))) modifiers.push('Shift');
  return normalChord([...modifiers, key].join('+')) ?? null;
}

/** The command among `commands` the key press runs in `map`, or null. */
export function commandInMap<C extends KeyCommand>(
  e: KeyInfo,
  map: KeyMap,
  commands: readonly C[],
): C | null {
  const chord = chordOfEvent(e);
  if (chord === null) return null;
  return commands.find((command) => map[command].includes(chord)) ?? null;
}

const KEY_SYMBOLS: Partial<Record<string, string>> = {
  ArrowUp: '↑',
  ArrowDown: '↓',
  ArrowLeft: '←',
  ArrowRight: '→',
};

/** How a chord is shown: "⌘+⌥+Y" on macOS, "Ctrl+Alt+Y" elsewhere; "⌥+↓". */
export function chordLabel(text: string, mac = IS_MAC): string {
  const chord = parseChord(text);
  if ('problem' in chord) return text;
  const names: Record<Modifier, string> = { Mod: mac ? '⌘' : 'Ctrl', Alt: mac ? '⌥' : 'Alt', Shift: 'Shift' };
  const modifiers = (['Mod', 'Alt', 'Shift'] as const).filter((m) => chord.modifiers.has(m));
  return [...modifiers.map((m) => names[m]), KEY_SYMBOLS[chord.key] ?? chord.key].join('+');
}

/** A command's chords as shown: "J / ⌥+↓"; empty when it has none. */
export function keysLabel(map: KeyMap, command: KeyCommand, mac = IS_MAC): string {
  return map[command].map((chord) => chordLabel(chord, mac)).join(' / ');
}

/** "Accept current hunk (⌘+Y)", or the description alone when the command has no key. */
export function withKeys(description: string, map: KeyMap, command: KeyCommand, mac = IS_MAC): string {
  const keys = keysLabel(map, command, mac);
  return keys ? `${description} (${keys})` : description;
}
