/**
 * The review keys (docs/REVIEWING.md), from the settings' key map (shared/keymap.ts; key-chords.ts matches a
 * key press). Keys are read at the window in the capture phase so they also work while the read-only
 * diff editor has focus, and never while the person types into a text field. Which keys wait after a
 * review came up by itself is key-pause.ts.
 */
import { KEY_COMMAND_NAMES, REVIEW_COMMANDS, type KeyCommand, type KeyMap } from '../../shared/keymap';
import { commandInMap, IS_MAC, type KeyInfo } from './key-chords';
import { currentKeyMap } from './key-map';
import type { Command } from './review-command';

/** The review commands; the keys of the lines selected (line-keys.ts, send-to-agent.ts) have their own rules. */
export { REVIEW_COMMANDS };

export type { Command };

/** How the platform's command modifier is written in labels of keys outside the map (Ctrl/Cmd+C). */
export const MOD = IS_MAC ? '⌘' : 'Ctrl';

export const commandDescriptions: Readonly<Record<KeyCommand, string>> = KEY_COMMAND_NAMES;

/** Maps a key event to a review command of `keyMap`, or null when the key is not ours. */
export function commandForKey(e: KeyInfo, keyMap: KeyMap): Command | null {
  return commandInMap(e, keyMap, REVIEW_COMMANDS);
}

/**
 * Monaco's own widgets that take text (find, rename, quick input) count as typing, and so do an editor
 * the person is editing the proposal in (DiffEditor marks it data-editable) and a comment box under a
 * line (LineComment); a read-only editor surface does not.
 */
const MONACO_TEXT_WIDGETS =
  '.find-widget, .rename-box, .quick-input-widget, .monaco-inputbox, [data-editable="true"], .dt-line-comment';
const TEXT_INPUT_TYPES = new Set([
  'text',
  'search',
  'email',
  'url',
  'tel',
  'password',
  'number',
  'date',
  'time',
]);

export function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof Element)) return false;
  if (target.closest('.monaco-editor')) return target.closest(MONACO_TEXT_WIDGETS) !== null;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  if (target instanceof HTMLInputElement) return TEXT_INPUT_TYPES.has(target.type);
  return target instanceof HTMLElement && target.isContentEditable;
}

/**
 * A window-level key handler, run before the page's own: keys the target keeps (`ignore`) and keys a
 * modal dialog owns (the reject reason) pass by; a key that maps to a command is taken and run.
 * Returns the function that removes it.
 */
export function installKeyHandler<C>(
  win: Window,
  commandFor: (e: KeyboardEvent) => C | null,
  run: (command: C) => void,
  ignore: (e: KeyboardEvent) => boolean,
): () => void {
  const onKeyDown = (e: KeyboardEvent): void => {
    if (e.isComposing || ignore(e)) return;
    if (win.document.querySelector('dialog[open]')) return;
    const command = commandFor(e);
    if (command === null) return;
    e.preventDefault();
    e.stopPropagation();
    run(command);
  };
  win.addEventListener('keydown', onKeyDown, { capture: true });
  return () => win.removeEventListener('keydown', onKeyDown, { capture: true });
}

/** Installs the review keys; text fields keep their keys. */
export function installKeyboard(
  win: Window,
  run: (command: Command) => void,
  keyMap: () => KeyMap = currentKeyMap,
): () => void {
  return installKeyHandler(
    win,
    (e) => commandForKey(e, keyMap()),
    run,
    (e) => isTypingTarget(e.target),
  );
}
