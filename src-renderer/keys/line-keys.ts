/**
 * Accept or reject the lines selected in the diff (Mod+Shift+Y / N by default). Kept apart
 * from keyboard.ts's map because they must also work while the proposed side is being edited (where
 * keyboard.ts leaves keys to the editor): a selection is made in the editor, then decided from it.
 */
import type { KeyMap } from '../../shared/keymap';
import { commandInMap, type KeyInfo } from './key-chords';
import { currentKeyMap } from './key-map';
import { installKeyHandler, isTypingTarget } from './keyboard';

export const LINE_COMMANDS = ['acceptLines', 'rejectLines'] as const;
export type LineCommand = (typeof LINE_COMMANDS)[number];

export function lineCommandForKey(e: KeyInfo, keyMap: KeyMap): LineCommand | null {
  return commandInMap(e, keyMap, LINE_COMMANDS);
}

export function installLineKeys(
  win: Window,
  run: (command: LineCommand) => void,
  keyMap: () => KeyMap = currentKeyMap,
): () => void {
  return installKeyHandler(win, (e) => lineCommandForKey(e, keyMap()), run, keptForTyping);
}

/**
 * Text fields outside the diff keep their keys. Inside the diff the selection is the point, also while
 * the proposal is edited; there only a chord with Mod is taken, so a key remapped to a plain letter
 * still types.
 */
export function keptForTyping(e: Pick<KeyboardEvent, 'target' | 'ctrlKey' | 'metaKey'>): boolean {
  const target = e.target instanceof Element ? e.target : null;
  if (!isTypingTarget(target)) return false;
  return !target?.closest('.monaco-editor') || !(e.ctrlKey || e.metaKey);
}
